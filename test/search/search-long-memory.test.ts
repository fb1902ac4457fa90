import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../api";
import { stackRedis, testStack } from "../harness";
import { ok, tenant } from "../memories/memory-helpers";
import type { RedisClient } from "../../services/kit/redis-functions";
import { search } from "./search-helpers";

/**
 * A long memory (a pasted document, a long reply) is searchable by meaning in full: its content is embedded in
 * overlapping chunks, one vector each, and a passage deep in it is found by a paraphrase sharing none of its
 * words (so the lexical side cannot find it). An update that removes the passage makes it unfindable, and a
 * delete removes every chunk's vector.
 */
const FILLER = [
  "The quarterly deployment moved the billing service to the new cluster without downtime.",
  "Rain is expected over the northern hills on Thursday, clearing by the weekend.",
  "The regional train timetable changes in December, with fewer stops after midnight.",
  "Our team reviewed the logging pipeline and reduced its storage bill by a third.",
  "The library extended its opening hours during the examination period.",
  "A firmware update fixed the printer's habit of jamming on thick paper.",
  "The marathon route avoids the old bridge while it is being repainted.",
  "Server certificates now renew automatically thirty days before they expire.",
];
const FACT = "Our grandmother's secret lasagna recipe uses nutmeg in the béchamel sauce.";
const PARAPHRASE = "Which spice goes into granny's Italian pasta bake?";

/** ~`chars` characters of filler with `fact` at about character `at` (when given). */
function longContent(chars: number, fact?: { at: number; text: string }): string {
  let out = "";
  for (let i = 0; out.length < chars; i++) {
    if (fact && out.length >= fact.at && !out.includes(fact.text)) out += `${fact.text} `;
    out += `${FILLER[i % FILLER.length]} (${i}) `;
  }
  return out;
}

describe("a passage deep in a long memory", () => {
  let api: ApiClient;
  let tenantId: string;
  let redis: RedisClient;
  let id: string;
  const vectorSet = () => `s:{${tenantId}:live}:v:use-lite-512`;

  beforeAll(async () => {
    const t = await tenant();
    api = t.api;
    tenantId = t.tenant;
    redis = stackRedis(await testStack());
    const content = longContent(40_000, { at: 20_000, text: FACT });
    expect(content.indexOf(FACT)).toBeGreaterThanOrEqual(20_000);
    expect(content.indexOf(FACT)).toBeLessThan(20_200);
    id = (await ok(api.post("/v1/memories", { content }))).id;
    // Others, so that a result is chosen among several.
    for (const other of [
      "The winter tyres are stored in the garage until November.",
      "The dentist appointment moved to Tuesday at nine.",
      longContent(3_000),
      "We booked a cabin by the lake for the summer holidays.",
    ])
      await ok(api.post("/v1/memories", { content: other }));
  });
  afterAll(() => redis.disconnect());

  test("is found by a paraphrase of it, by meaning alone", async () => {
    const [top] = await search(api, { query: PARAPHRASE, limit: 3 });
    expect(top?.id).toBe(id);
    expect(top!.scores.lexical).toBe(0);
    expect(top!.scores.semantic).toBeGreaterThan(0.25);
  });

  test("an update that removes it makes it unfindable; a delete removes every chunk's vector", async () => {
    const before = Number(await redis.call("VCARD", vectorSet()));
    expect(before).toBeGreaterThan(50);
    await ok(api.patch(`/v1/memories/${id}`, { content: longContent(40_000) }));
    const results = await search(api, { query: PARAPHRASE, limit: 10 });
    const updated = results.find((r) => r.id === id);
    expect(updated === undefined || updated.scores.semantic! < 0.15).toBe(true);
    expect(results[0]?.id).not.toBe(id);
    expect(Number(await redis.call("VCARD", vectorSet()))).toBe(before);
    const res = await api.delete(`/v1/memories/${id}`);
    expect(res.status).toBe(200);
    // Four others remain: three short ones and one of a few chunks.
    const left = Number(await redis.call("VCARD", vectorSet()));
    expect(left).toBeLessThan(15);
    expect((await search(api, { query: PARAPHRASE, limit: 10 })).map((r) => r.id)).not.toContain(id);
  });
});
