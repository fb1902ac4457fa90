import type { EntityType } from "../../generated/graphql";
import { lower } from "../memories/options";

export const ENTITY_TYPES: EntityType[] = ["PERSON", "ORGANIZATION", "PLACE", "PRODUCT", "EVENT", "CONCEPT", "OTHER"];

/** A labelled select of entity types. */
export function TypeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: EntityType;
  onChange: (t: EntityType) => void;
}) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as EntityType)}>
      {ENTITY_TYPES.map((t) => (
        <option key={t} value={t}>
          {lower(t)}
        </option>
      ))}
    </select>
  );
}
