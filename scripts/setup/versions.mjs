// Debian package versions ("5:8.0.6-3", "2.10.27-1+b2") and the upstream versions inside them.

/** "5:8.0.6-3" → "8.0.6": the epoch, the Debian revision and suffixes such as "+dfsg" are dropped. */
export function upstreamOf(debianVersion) {
  const noEpoch = debianVersion.replace(/^\d+:/, "");
  const noRevision = noEpoch.includes("-") ? noEpoch.slice(0, noEpoch.lastIndexOf("-")) : noEpoch;
  return /^\d+(\.\d+)*/.exec(noRevision)?.[0] ?? "0";
}

/** Compares dotted numeric versions: negative when a < b. "8.0.10" > "8.0.6". */
export function compareVersions(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export const atLeast = (version, floor) => compareVersions(version, floor) >= 0;
