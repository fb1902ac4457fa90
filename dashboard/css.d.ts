// Bun bundles imported CSS files into the page's stylesheet; they export nothing.
declare module "*.css";
