import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { APP, REPO } from "./manifests.fixture";

/** The Dockerfile's targets and docker-compose.yml: what runs, as whom, from which image. */

describe("container images and docker-compose", () => {
  const dockerfile = readFileSync(join(REPO, "Dockerfile"), "utf8");
  const compose = parse(readFileSync(join(REPO, "docker-compose.yml"), "utf8"), { merge: true }) as {
    services: Record<string, any>;
  };

  test("the Dockerfile has a non-root target per component, running that component's entry point", () => {
    for (const name of APP) {
      const stage = dockerfile.split(/^FROM /m).find((s) => new RegExp(`^runtime AS ${name}\\s*$`, "m").test(s));
      expect(stage).toBeDefined();
      const entry = name === "gateway" ? "gateway/main.ts" : `services/${name}/main.ts`;
      expect(stage).toContain(`CMD ["bun", "${entry}"]`);
      // A stage may install packages as root, but must hand back to the app user before it runs.
      const users = [...stage!.matchAll(/^USER (.+)$/gm)].map((m) => m[1]);
      if (users.length > 0) expect(users.at(-1)).toBe("10001:10001");
    }
    expect(dockerfile).toMatch(/^FROM oven\/bun:1\.4[\w.-]* AS runtime$/m);
    expect(dockerfile).toMatch(/^USER 10001:10001$/m);
    expect(dockerfile).toContain("npm ci --omit=dev");
  });

  test("the gateway image serves browser assets bundled at build time from dashboard/, and says where", () => {
    const stages = dockerfile.split(/^FROM /m);
    const web = stages.find((s) => /AS web\s*$/m.test(s))!;
    const gateway = stages.find((s) => /^runtime AS gateway\s*$/m.test(s))!;
    expect(web).toContain("COPY dashboard ./dashboard");
    const out = /^RUN bun gateway\/web\/build\.ts (\S+)$/m.exec(web)?.[1];
    expect(out).toBeDefined();
    expect(gateway).toContain(`COPY --from=web ${out} ./web`);
    expect(gateway).toMatch(/^ENV WEB_ASSETS_DIR=\/app\/web$/m);
    // The runtime image itself keeps production dependencies only.
    const runtime = stages.find((s) => /AS runtime\s*$/m.test(s))!;
    expect(runtime).toContain("COPY --from=deps /app/node_modules ./node_modules");
  });

  test("the search image carries the model's kernel, built from dense.c with no -m flag, and names it", () => {
    const stages = dockerfile.split(/^FROM /m);
    const kernel = stages.find((s) => /AS kernel\s*$/m.test(s));
    const search = stages.find((s) => /^runtime AS search\s*$/m.test(s))!;
    expect(kernel).toContain("COPY services/search/embedder/dense.c /src/dense.c");
    expect(kernel).toMatch(/gcc -O3 -shared -fPIC -o \/src\/dense\.so \/src\/dense\.c/);
    // A global -mavx512f would let the compiler use AVX-512 in the AVX2 variant too: a crash on AVX2-only nodes.
    expect(kernel).not.toMatch(/gcc .* -m\S+/);
    const path = /^ENV EMBEDDINGS_KERNEL=(\S+)$/m.exec(search)?.[1];
    expect(path).toBeDefined();
    expect(search).toContain(`COPY --from=kernel /src/dense.so ${path}`);
  });

  test("compose runs Redis 8, NATS with JetStream and every component read-only as uid 10001", () => {
    expect(compose.services.redis.image).toBe("redis:8");
    expect(compose.services.nats.command).toContain("-js");
    for (const name of APP) {
      const svc = compose.services[name];
      expect(svc.build.target).toBe(name);
      expect(svc.image).toBe(`memory-service/${name}`);
      expect(svc.read_only).toBe(true);
      expect(svc.user).toBe("10001:10001");
      expect(svc.cap_drop).toEqual(["ALL"]);
      expect(svc.environment.REDIS_URL).toBe("redis://redis:6379");
      expect(svc.environment.NATS_URL).toBe("nats://nats:4222");
    }
    expect(compose.services.gateway.ports).toEqual(["3000:3000"]);
  });
});
