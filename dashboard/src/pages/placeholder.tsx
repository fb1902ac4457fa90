/** A page whose content comes later: its heading and one line. */
export function Placeholder({ title, text = "This page is not built yet." }: { title: string; text?: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p>{text}</p>
    </>
  );
}
