import { buildContext, type ContextMemory } from "../../contract/search";
import type { Memory } from "../../contract/memories";
import { bind, requireCaller, restrictionOf, type Handler } from "../../kit/handler";
import { restrictFilters } from "../restriction";
import { assemble, type Bundle, type Piece } from "../context";
import { checkRequest, filtersOf, type SearchDeps } from "./search";

/**
 * `search.context`: the matches of a query, each with its thread (ancestors up to the root and the
 * siblings just before and after it, from the memories service), fitted into a token budget. The memories
 * service is called at most three times whatever the number of matches: matches, their threads, ancestors.
 */
export function contextBindings(deps: SearchDeps) {
  const context: Handler<typeof buildContext> = async (input, ctx) => {
    const caller = requireCaller(ctx);
    checkRequest(input);
    const space = { tenant: caller.tenant, env: caller.env };
    const on = { caller, requestId: ctx.requestId };
    await deps.rebuilder.ensure(space);
    const filters = restrictFilters(filtersOf(input), restrictionOf(ctx));
    const ranked = filters
      ? await deps.retrieve(space, {
          query: input.query,
          limit: input.limit ?? 20,
          threshold: input.threshold ?? 0,
          filters,
        })
      : [];
    const known = await deps.reader.getMany(
      on,
      ranked.map((r) => r.id),
    );
    const matches = ranked.flatMap((r) => {
      const memory = known.get(r.id);
      return memory ? [{ memory, score: r.score }] : [];
    });

    // Ancestors are always looked up: they name the thread (its root) a match belongs to. One call for all matches.
    const around = await deps.reader.threads(
      on,
      matches.map((m) => m.memory),
      input.neighbors ?? 1,
    );
    if (input.include_ancestors ?? true) {
      const missing = around.flatMap((a) => a.ancestors).filter((id) => !known.has(id));
      for (const [id, m] of await deps.reader.getMany(on, missing)) known.set(id, m);
    }

    const bundles: Bundle[] = matches.map(({ memory, score }, i) => {
      const { ancestors, before, after } = around[i]!;
      const thread = ancestors.at(-1) ?? memory.id;
      const piece = (m: Memory, role: Piece["role"], s: number | null = null): Piece => ({
        memory: m,
        role,
        score: s,
        thread,
      });
      return {
        match: piece(memory, "match", score),
        ancestors:
          (input.include_ancestors ?? true)
            ? ancestors.flatMap((id) => (known.has(id) ? [piece(known.get(id)!, "ancestor")] : []))
            : [],
        neighbors: [...before, ...after].map((m) => piece(m, "neighbor")),
      };
    });

    const out = assemble(bundles, input.max_tokens ?? 2000, input.format ?? "text");
    const originals = new Map(
      bundles.flatMap((b) => [b.match, ...b.ancestors, ...b.neighbors]).map((p) => [p.memory.id, p.memory]),
    );
    const memories: ContextMemory[] = out.pieces.map((p) => ({
      ...(originals.get(p.memory.id) ?? p.memory),
      role: p.role,
      score: p.score,
    }));
    return {
      context: out.context,
      memories,
      token_count: out.tokenCount,
      truncated: out.truncated,
      omitted: out.omitted,
    };
  };
  return [bind(buildContext, context)];
}
