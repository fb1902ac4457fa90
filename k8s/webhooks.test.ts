import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { defaultRenderer, render, type K8sObject } from "./render";
import { canConnect, type Endpoint } from "./netpol";
import { workloads } from "./rules";

/**
 * The webhooks service is the one component that connects to the internet: its egress reaches public
 * addresses on any port, and none of the private, loopback or metadata ranges its URL policy refuses too.
 */
const objects = (dir: string): K8sObject[] => render(join(import.meta.dir, dir), defaultRenderer());
const podOf = (objs: K8sObject[], name: string): Endpoint => {
  const w = workloads(objs).find((x) => x.obj.metadata.name === name)!;
  return { pod: w.labels, namespace: w.namespace };
};

for (const overlay of ["overlays/dev", "overlays/prod"]) {
  describe(`webhooks egress (${overlay})`, () => {
    const objs = objects(overlay);
    const webhooks = podOf(objs, "webhooks");

    test("public receivers on 443 and on other ports", () => {
      for (const [ip, port] of [
        ["93.184.216.34", 443],
        ["93.184.216.34", 8443],
        ["8.8.8.8", 80],
      ] as const)
        expect([ip, port, canConnect(objs, webhooks, { ip }, port)]).toEqual([ip, port, true]);
    });

    test("never cloud metadata, private, loopback or carrier-grade NAT addresses", () => {
      for (const ip of ["169.254.169.254", "10.0.0.1", "172.20.1.1", "192.168.1.1", "127.0.0.1", "100.100.100.200"])
        expect([ip, canConnect(objs, webhooks, { ip }, 443)]).toEqual([ip, false]);
    });

    test("no other component reaches the internet, and nothing reaches the webhooks pods", () => {
      for (const name of ["gateway", "keys", "memories", "tags", "search"])
        expect([name, canConnect(objs, podOf(objs, name), { ip: "93.184.216.34" }, 443)]).toEqual([name, false]);
      expect(canConnect(objs, { ip: "203.0.113.7" }, webhooks, 8081)).toBe(false);
      expect(canConnect(objs, podOf(objs, "gateway"), webhooks, 8081)).toBe(false);
    });
  });
}
