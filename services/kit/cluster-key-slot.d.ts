declare module "cluster-key-slot" {
  /** The Redis Cluster slot (0–16383) of a key: CRC16 of its hash tag, or of the whole key. */
  export default function calculateSlot(key: string | Buffer): number;
}
