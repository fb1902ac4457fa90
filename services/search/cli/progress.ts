/** A one-line progress bar on stderr (redrawn in place on a terminal, a line per 10 % otherwise). */
export function progressBar(label: string, out: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  let lastTenth = -1;
  const line = (done: number, total: number) => {
    const share = total > 0 ? Math.min(1, done / total) : 1;
    const width = 30;
    const filled = Math.round(share * width);
    const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
    return `${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${rate.toFixed(1)}/s`;
  };
  return {
    update(done: number, total: number) {
      if (out.isTTY) out.write(`\r${line(done, total)}`);
      else {
        const tenth = total > 0 ? Math.floor((10 * done) / total) : 10;
        if (tenth !== lastTenth) out.write(`${line(done, total)}\n`);
        lastTenth = tenth;
      }
    },
    finish(summary: string) {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      out.write(`${out.isTTY ? "\r\u001b[K" : ""}${label} ${summary} (${seconds} s)\n`);
    },
  };
}
