import { loadServiceConfig } from "../kit/config";

/** The tags service's settings (besides services/kit/config.ts' BaseConfig): none of its own yet. */
export const TagsConfig = {};

export const loadTagsConfig = () => loadServiceConfig(TagsConfig);
