import { Elysia } from "elysia";

/** The baseline of `npm run bench`: a bare Elysia route on the same runtime and machine. */
const app = new Elysia()
  .get("/hello", () => ({ hello: "world" }))
  .listen({ port: Number(process.env.PORT ?? 0), hostname: "127.0.0.1" });
console.log(`listening ${app.server?.port}`);
