import type { K8sObject } from "./render";

/**
 * A small NetworkPolicy evaluator (networking.k8s.io/v1 semantics): can this endpoint open a
 * connection to that one on this port? A connection needs the sender's egress AND the receiver's
 * ingress to allow it; a pod that no policy of a direction selects is open in that direction.
 * IPv4 only, numeric ports only (our policies use nothing else; anything else throws).
 */

export type Labels = Record<string, string>;
export type Endpoint = { pod: Labels; namespace: string } | { ip: string };

interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PortSpec {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface Rule {
  ports?: PortSpec[];
  to?: Peer[];
  from?: Peer[];
}
interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes?: ("Ingress" | "Egress")[];
  ingress?: Rule[];
  egress?: Rule[];
}

export function selects(sel: LabelSelector, labels: Labels): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = e.key in labels;
    const inValues = has && (e.values ?? []).includes(labels[e.key]!);
    const ok = { In: inValues, NotIn: !inValues, Exists: has, DoesNotExist: !has }[e.operator];
    if (ok === undefined) throw new Error(`label selector operator ${e.operator} is unknown`);
    if (!ok) return false;
  }
  return true;
}

export const policyTypes = (spec: PolicySpec): string[] =>
  spec.policyTypes ?? (spec.egress ? ["Ingress", "Egress"] : ["Ingress"]);

const ipv4 = (ip: string): number => {
  const parts = ip.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    throw new Error(`not an IPv4 address: ${ip}`);
  return parts.reduce((acc, p) => acc * 256 + p, 0);
};

export function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/");
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipv4(base!) / size) * size;
  const n = ipv4(ip);
  return n >= start && n < start + size;
}

function portMatches(ports: PortSpec[] | undefined, port: number, protocol: string): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? "TCP") !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === "string") throw new Error(`named port ${p.port} is not supported`);
    return p.endPort === undefined ? p.port === port : port >= p.port && port <= p.endPort;
  });
}

function peerMatches(peers: Peer[] | undefined, ep: Endpoint, policyNamespace: string): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some((peer) => {
    if (peer.ipBlock)
      return (
        "ip" in ep && inCidr(ep.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c) => inCidr(ep.ip, c))
      );
    if (!("pod" in ep)) return false;
    const nsOk = peer.namespaceSelector
      ? selects(peer.namespaceSelector, { "kubernetes.io/metadata.name": ep.namespace })
      : ep.namespace === policyNamespace;
    return nsOk && (peer.podSelector ? selects(peer.podSelector, ep.pod) : true);
  });
}

function allowed(
  policies: K8sObject[],
  dir: "Ingress" | "Egress",
  self: { pod: Labels; namespace: string },
  peer: Endpoint,
  port: number,
  protocol: string,
): boolean {
  const applicable = policies.filter((p) => {
    const spec = p.spec as PolicySpec;
    return (
      (p.metadata.namespace ?? "default") === self.namespace &&
      policyTypes(spec).includes(dir) &&
      selects(spec.podSelector, self.pod)
    );
  });
  if (applicable.length === 0) return true;
  return applicable.some((p) => {
    const spec = p.spec as PolicySpec;
    const rules = (dir === "Ingress" ? spec.ingress : spec.egress) ?? [];
    const ns = p.metadata.namespace ?? "default";
    return rules.some(
      (r) => portMatches(r.ports, port, protocol) && peerMatches(dir === "Ingress" ? r.from : r.to, peer, ns),
    );
  });
}

export function canConnect(
  objects: K8sObject[],
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol = "TCP",
): boolean {
  const policies = objects.filter((o) => o.kind === "NetworkPolicy");
  const egressOk = !("pod" in from) || allowed(policies, "Egress", from, to, port, protocol);
  const ingressOk = !("pod" in to) || allowed(policies, "Ingress", to, from, port, protocol);
  return egressOk && ingressOk;
}
