/**
 * What a tenant with no entity sees instead of an empty table: what an entity is, and every way to make one. The
 * service never extracts entities from memory content, so a new user would otherwise not know where they come from.
 */
export function NoEntities({ canWrite }: { canWrite: boolean }) {
  return (
    <section class="panel" aria-labelledby="no-entities-title" data-testid="entities-empty">
      <h2 id="no-entities-title">No entities yet</h2>
      <p>
        An entity is a named thing your memories are about: a person, an organization, a place, a product, an event or a
        concept. Memories linked to an entity can be listed together (the entity filter of Memories) and a search can be
        narrowed to them.
      </p>
      <p>The service never creates entities from what memories say. They are created and linked:</p>
      <ul>
        {canWrite && <li>here, with the New entity form above;</li>}
        <li>
          over REST: <code>POST /v1/entities</code> (its <code>memory_ids</code> links memories at once), then{" "}
          <code>POST /v1/entities/{"{id}"}/memories</code> to link more;
        </li>
        <li>
          over GraphQL: the mutations <code>createEntity</code> and <code>linkEntityMemories</code>;
        </li>
        <li>
          over MCP: the tool <code>link_entity</code>, which links memories to an entity by name and type and creates
          the entity when it does not exist.
        </li>
      </ul>
      <p class="hint">
        Each needs a key with the <code>memories:write</code> scope.
      </p>
    </section>
  );
}
