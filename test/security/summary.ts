/**
 * What the security tests covered, printed as one line at the end of a run: operations per surface, the
 * credentials each was sent with, the restriction kinds and the requests sent under them.
 */
class Counts {
  private readonly ops = new Map<string, number>();
  private readonly credentials = new Set<string>();
  private readonly kinds = new Set<string>();
  restrictedRequests = 0;

  add(surface: string, credential: string, operations: number) {
    this.ops.set(surface, Math.max(this.ops.get(surface) ?? 0, operations));
    this.credentials.add(credential);
  }

  restricted(kind: string, surface: string, operations: number) {
    this.kinds.add(kind);
    this.add(surface, `token restricted (${kind})`, operations);
  }

  line(): string {
    const ops = [...this.ops].map(([s, n]) => `${s} ${n}`).join(", ");
    const total = [...this.ops.values()].reduce((a, b) => a + b, 0);
    return (
      `security: ${total} operations (${ops}) x ${this.credentials.size} credentials ` +
      `(${[...this.credentials].join("; ")}) x ${this.kinds.size} restriction kinds ` +
      `(${[...this.kinds].join(", ")}); ${this.restrictedRequests} requests by restricted tokens`
    );
  }
}

export const counts = new Counts();
