// Generated from the service's OpenAPI document by openapi-typescript (npm run sdk:types). Do not edit.
export type paths = {
    "/v1/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The memories an LLM should see for a query, assembled by thread within a token budget
         * @description Requires the `search:read` scope.
         */
        post: operations["getContext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List entities, newest first
         * @description Requires the `memories:read` scope.
         */
        get: operations["listEntities"];
        put?: never;
        /**
         * Create an entity, optionally linked to memories
         * @description Requires the `memories:write` scope.
         */
        post: operations["createEntity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/entities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one entity
         * @description Requires the `memories:read` scope.
         */
        get: operations["getEntity"];
        put?: never;
        post?: never;
        /**
         * Delete an entity; it is unlinked from every memory, the memories stay
         * @description Requires the `memories:write` scope.
         */
        delete: operations["deleteEntity"];
        options?: never;
        head?: never;
        /**
         * Update an entity partially (description: null removes it; metadata is replaced whole)
         * @description Requires the `memories:write` scope.
         */
        patch: operations["updateEntity"];
        trace?: never;
    };
    "/v1/entities/{id}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link memories to an entity (all or nothing; already linked ones are skipped)
         * @description Requires the `memories:write` scope.
         */
        post: operations["linkEntityMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/entities/{id}/memories/{memoryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink a memory from an entity (idempotent: removed=false when it was not linked)
         * @description Requires the `memories:write` scope.
         */
        delete: operations["unlinkEntityMemory"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's API keys (never a secret or a hash)
         * @description Requires the `admin` scope.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key (the secret is returned only here)
         * @description Requires the `admin` scope.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one API key, as listed (never a secret or a hash)
         * @description Requires the `admin` scope.
         */
        get: operations["getKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key; it fails on every gateway replica within a second
         * @description Requires the `admin` scope.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        /**
         * Change an API key: only the fields sent change, never beyond what the calling key holds
         * @description Requires the `admin` scope.
         */
        patch: operations["updateKey"];
        trace?: never;
    };
    "/v1/keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give an API key a new secret (returned only here); the previous one stops at once or after a grace
         * @description Requires the `admin` scope.
         */
        post: operations["rotateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List memories with filters, sort and an exact total
         * @description Requires the `memories:read` scope.
         */
        get: operations["listMemories"];
        put?: never;
        /**
         * Create a memory
         * @description Requires the `memories:write` scope.
         */
        post: operations["createMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one memory with its tags and entity ids
         * @description Requires the `memories:read` scope.
         */
        get: operations["getMemory"];
        put?: never;
        post?: never;
        /**
         * Delete a memory; its children become roots, or with cascade=true the whole subtree goes
         * @description Requires the `memories:write` scope.
         */
        delete: operations["deleteMemory"];
        options?: never;
        head?: never;
        /**
         * Update a memory partially (only sent fields change; metadata is replaced whole)
         * @description Requires the `memories:write` scope.
         */
        patch: operations["updateMemory"];
        trace?: never;
    };
    "/v1/memories/{id}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach tags to a memory: all or nothing; already attached ones are skipped
         * @description Requires the `memories:write` scope.
         */
        post: operations["attachTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/{id}/tags/{tagId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Detach a tag from a memory (removed: false when it was not attached)
         * @description Requires the `memories:write` scope.
         */
        delete: operations["detachTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/memories/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create up to 500 memories in one call; an item may name an earlier one as its parent
         * @description Requires the `memories:write` scope.
         */
        post: operations["createMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hybrid search (semantic + BM25, thread-aware) over the tenant's memories, with filters
         * @description Requires the `search:read` scope.
         */
        post: operations["searchMemories"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tags: search on name, sort by name, memory_count or created_at
         * @description Requires the `memories:read` scope.
         */
        get: operations["listTags"];
        put?: never;
        /**
         * Create a tag (name unique per tenant+environment, case-insensitively)
         * @description Requires the `memories:write` scope.
         */
        post: operations["createTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one tag
         * @description Requires the `memories:read` scope.
         */
        get: operations["getTag"];
        put?: never;
        post?: never;
        /**
         * Delete a tag; it is removed from every memory that carried it (the memories stay)
         * @description Requires the `memories:write` scope.
         */
        delete: operations["deleteTag"];
        options?: never;
        head?: never;
        /**
         * Update a tag: only the fields sent change; null removes color or description
         * @description Requires the `memories:write` scope.
         */
        patch: operations["updateTag"];
        trace?: never;
    };
    "/v1/tenant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The settings of the caller's tenant and environment
         * @description Requires the `admin` scope.
         */
        get: operations["getTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the tenant's settings (only the fields sent; retention applies to memories created later)
         * @description Requires the `admin` scope.
         */
        patch: operations["updateTenant"];
        trace?: never;
    };
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a short-lived browser token, restricted and never holding more than the minting key
         * @description Requires the `tokens:create` scope.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage report: totals and breakdowns by day, endpoint and key; what the environment stores
         * @description Requires the `admin` scope.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the webhook endpoints of the tenant's environment, newest first
         * @description Requires the `admin` scope.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint (its signing secret is returned only here)
         * @description Requires the `admin` scope.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one webhook endpoint (never its secret)
         * @description Requires the `admin` scope.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its pending deliveries
         * @description Requires the `admin` scope.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint: only the fields sent change
         * @description Requires the `admin` scope.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent deliveries to a webhook endpoint, newest first, with their attempts and next retry
         * @description Requires the `admin` scope.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attempt one delivery again now, whatever its status
         * @description Requires the `admin` scope.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give a webhook endpoint a new signing secret; the previous one signs too for 24 hours
         * @description Requires the `admin` scope.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a ping event to a webhook endpoint now (even a disabled one); follow it in its deliveries
         * @description Requires the `admin` scope.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = Record<string, never>;
export type components = {
    schemas: {
        ApiKey: {
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            environment: "live" | "test";
            /** Format: date-time */
            expires_at: string | null;
            /** Format: uuid */
            id: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
            /** @enum {string} */
            plan: "free" | "pro" | "enterprise" | "self_hosted";
            /** @description First characters of the secret, to recognise a key; not secret. */
            prefix: string;
            rate_limit: number | null;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("memories:read" | "memories:write" | "search:read" | "admin" | "tokens:create" | "*")[];
            tenant_id: string;
        };
        ContextOutput: {
            /** @description Grouped by thread, chronological inside a thread, each memory once with its date. */
            context: string;
            /** @description The memories in `context`. */
            memories: {
                content: string;
                /** @enum {string} */
                content_type: "text" | "conversation" | "document" | "event" | "fact";
                /** Format: date-time */
                created_at: string;
                /** @description Linked entities, sorted by id. */
                entity_ids: string[];
                /**
                 * Format: date-time
                 * @description From then on it is gone (404), even before it is purged.
                 */
                expires_at: string | null;
                external_id: string | null;
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                memory_nature: "episodic" | "semantic";
                metadata: {
                    [key: string]: unknown;
                };
                /**
                 * Format: date-time
                 * @description When it happened (given, or created_at): the order of a thread's turns.
                 */
                occurred_at: string;
                /** Format: uuid */
                parent_memory_id: string | null;
                /** @enum {string} */
                role: "match" | "ancestor" | "neighbor";
                /** @description For matches. */
                score: number | null;
                /**
                 * Format: uuid
                 * @description The memory that replaced this one; null while it is the latest.
                 */
                superseded_by: string | null;
                /**
                 * Format: uuid
                 * @description The memory this one replaced.
                 */
                supersedes: string | null;
                /** @description Attached tags, sorted by name. */
                tags: components["schemas"]["TagRef"][];
                /** @enum {string} */
                tier: "short" | "medium" | "long";
                /** Format: date-time */
                updated_at: string;
                /**
                 * Format: date-time
                 * @description The occurred_at of the memory that replaced this one.
                 */
                valid_to: string | null;
            }[];
            /** @description What did not fit, lowest match scores dropped first. */
            omitted: {
                /** Format: uuid */
                id: string;
                /** @enum {string} */
                role: "match" | "ancestor" | "neighbor";
                score: number | null;
            }[];
            /** @description Tokens of `context` (o200k_base, as gpt-tokenizer counts them). */
            token_count: number;
            /** @description True when something did not fit in max_tokens. */
            truncated: boolean;
        };
        CountedMeta: {
            /** @description Time the gateway spent on the request, in milliseconds. */
            latency_ms: number;
            /** @description Also sent as the X-Request-Id header; quote it when reporting a problem. */
            request_id: string;
            total: number;
        };
        CreatedKey: {
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            environment: "live" | "test";
            /** Format: date-time */
            expires_at: string | null;
            /** Format: uuid */
            id: string;
            key: string;
            /** Format: date-time */
            last_used_at: string | null;
            message: string;
            name: string;
            /** @enum {string} */
            plan: "free" | "pro" | "enterprise" | "self_hosted";
            /** @description First characters of the secret, to recognise a key; not secret. */
            prefix: string;
            rate_limit: number | null;
            /** Format: date-time */
            revoked_at: string | null;
            scopes: ("memories:read" | "memories:write" | "search:read" | "admin" | "tokens:create" | "*")[];
            tenant_id: string;
        };
        CreatedWebhook: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            /**
             * @description failing: every attempt failed for the disable threshold (3 days); manual: PATCH enabled false.
             * @enum {string|null}
             */
            disabled_reason: "failing" | "manual" | null;
            enabled: boolean;
            /** @enum {string} */
            environment: "live" | "test";
            events: ("*" | "memory.created" | "memory.updated" | "memory.deleted" | "memory.tags_changed" | "memory.entities_changed")[];
            /**
             * Format: date-time
             * @description First failed attempt since the last success; null when healthy.
             */
            failing_since: string | null;
            /** Format: uuid */
            id: string;
            message: string;
            /**
             * Format: date-time
             * @description Until then deliveries carry a signature by the previous secret too.
             */
            previous_secret_expires_at: string | null;
            /** @description whsec_…: shown only here. */
            secret: string;
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        Entity: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** Format: uuid */
            id: string;
            /** @description Number of memories linked to the entity. */
            memory_count: number;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            /** @enum {string} */
            type: "person" | "organization" | "place" | "product" | "event" | "concept" | "other";
            /** Format: date-time */
            updated_at: string;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "VALIDATION_ERROR" | "UNAUTHORIZED" | "FORBIDDEN" | "QUOTA_EXCEEDED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "NOT_ACCEPTABLE" | "IDEMPOTENCY_IN_FLIGHT" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "TIMEOUT" | "STORAGE_FULL";
                details?: {
                    /** @description The rule it broke: `required`, `max_length`… */
                    constraint?: string;
                    /** @description The field at fault, dotted (`metadata.notes.1`). */
                    field?: string;
                } & {
                    [key: string]: unknown;
                };
                message: string;
            };
            meta: {
                /** @description Also sent as the X-Request-Id header; quote it when reporting a problem. */
                request_id: string;
            };
        };
        ListMeta: {
            /** @description More items follow this page: offset + limit < total. */
            has_more: boolean;
            /** @description Time the gateway spent on the request, in milliseconds. */
            latency_ms: number;
            limit: number;
            offset: number;
            /** @description Also sent as the X-Request-Id header; quote it when reporting a problem. */
            request_id: string;
            /** @description Every item matching, on all pages. */
            total: number;
        };
        Memory: {
            content: string;
            /** @enum {string} */
            content_type: "text" | "conversation" | "document" | "event" | "fact";
            /** Format: date-time */
            created_at: string;
            /** @description Linked entities, sorted by id. */
            entity_ids: string[];
            /**
             * Format: date-time
             * @description From then on it is gone (404), even before it is purged.
             */
            expires_at: string | null;
            external_id: string | null;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            memory_nature: "episodic" | "semantic";
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When it happened (given, or created_at): the order of a thread's turns.
             */
            occurred_at: string;
            /** Format: uuid */
            parent_memory_id: string | null;
            /**
             * Format: uuid
             * @description The memory that replaced this one; null while it is the latest.
             */
            superseded_by: string | null;
            /**
             * Format: uuid
             * @description The memory this one replaced.
             */
            supersedes: string | null;
            /** @description Attached tags, sorted by name. */
            tags: components["schemas"]["TagRef"][];
            /** @enum {string} */
            tier: "short" | "medium" | "long";
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: date-time
             * @description The occurred_at of the memory that replaced this one.
             */
            valid_to: string | null;
        };
        Meta: {
            /** @description Time the gateway spent on the request, in milliseconds. */
            latency_ms: number;
            /** @description Also sent as the X-Request-Id header; quote it when reporting a problem. */
            request_id: string;
        };
        SearchResult: {
            content: string;
            /** @enum {string} */
            content_type: "text" | "conversation" | "document" | "event" | "fact";
            /** Format: date-time */
            created_at: string;
            /** @description Linked entities, sorted by id. */
            entity_ids: string[];
            /**
             * Format: date-time
             * @description From then on it is gone (404), even before it is purged.
             */
            expires_at: string | null;
            external_id: string | null;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            memory_nature: "episodic" | "semantic";
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When it happened (given, or created_at): the order of a thread's turns.
             */
            occurred_at: string;
            /** Format: uuid */
            parent_memory_id: string | null;
            score: number;
            /** @description The parts of `score` (null for "*"); the formula is in docs/search.md. */
            scores: {
                /** @description Share of the query's names (capitalised words past its first) the memory's terms hold; null when the query names none. */
                entity: number | null;
                /** @description BM25 over Σ idf of the query terms, capped at 1. */
                lexical: number | null;
                /** @description Cosine similarity of query and memory, floored at 0. */
                semantic: number | null;
                /** @description Best match score of the memory's neighbours in its thread. */
                thread: number | null;
            };
            /**
             * Format: uuid
             * @description The memory that replaced this one; null while it is the latest.
             */
            superseded_by: string | null;
            /**
             * Format: uuid
             * @description The memory this one replaced.
             */
            supersedes: string | null;
            /** @description Attached tags, sorted by name. */
            tags: components["schemas"]["TagRef"][];
            /** @enum {string} */
            tier: "short" | "medium" | "long";
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: date-time
             * @description The occurred_at of the memory that replaced this one.
             */
            valid_to: string | null;
        };
        Tag: {
            color: string | null;
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** Format: uuid */
            id: string;
            memory_count: number;
            name: string;
            /** Format: date-time */
            updated_at: string;
        };
        TagRef: {
            color: string | null;
            /** Format: uuid */
            id: string;
            name: string;
        };
        UsageReport: {
            by_day: {
                /** Format: date */
                day: string;
                errors: number;
                rate_limited: number;
                requests: number;
            }[];
            by_endpoint: {
                endpoint: string;
                errors: number;
                rate_limited: number;
                requests: number;
            }[];
            by_key: {
                errors: number;
                key_id: string;
                rate_limited: number;
                requests: number;
            }[];
            /** Format: date */
            from: string;
            key_id: string | null;
            storage: {
                /** @description Bytes of their content and metadata (JSON text), as stored. */
                bytes: number;
                /** @description The quotas: the plan's, or the root key's override for the tenant; null = no limit. */
                limits: {
                    bytes: number | null;
                    memories: number | null;
                };
                /** @description Memories stored (expired ones until the expiry purge takes them). */
                memories: number;
            };
            /** Format: date */
            to: string;
            totals: {
                errors: number;
                rate_limited: number;
                requests: number;
            };
        };
        Webhook: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            /**
             * @description failing: every attempt failed for the disable threshold (3 days); manual: PATCH enabled false.
             * @enum {string|null}
             */
            disabled_reason: "failing" | "manual" | null;
            enabled: boolean;
            /** @enum {string} */
            environment: "live" | "test";
            events: ("*" | "memory.created" | "memory.updated" | "memory.deleted" | "memory.tags_changed" | "memory.entities_changed")[];
            /**
             * Format: date-time
             * @description First failed attempt since the last success; null when healthy.
             */
            failing_since: string | null;
            /** Format: uuid */
            id: string;
            /**
             * Format: date-time
             * @description Until then deliveries carry a signature by the previous secret too.
             */
            previous_secret_expires_at: string | null;
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        WebhookDelivery: {
            attempt_count: number;
            /** @description The most recent attempts (up to 20), oldest first. */
            attempts: {
                /** Format: date-time */
                at: string;
                /** @description Why the attempt failed: timeout, connection, refused address… */
                error: string | null;
                latency_ms: number;
                /** @description Asked for by a retry call or a test. */
                manual: boolean;
                /** @description The receiver answered 2xx in time: the attempt succeeded (error is null). */
                ok: boolean;
                /** @description The receiver's HTTP status; null when none came back. */
                status_code: number | null;
            }[];
            /** Format: date-time */
            created_at: string;
            event_id: string;
            event_type: string;
            /** Format: uuid */
            id: string;
            memory_id: string | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /**
             * @description queued: waits for an earlier event of the same memory; pending: an attempt is due at next_attempt_at (or running); succeeded; failed: gave up (retries exhausted, endpoint disabled or deleted).
             * @enum {string}
             */
            status: "queued" | "pending" | "succeeded" | "failed";
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            webhook_id: string;
        };
    };
    responses: {
        /** @description FORBIDDEN, QUOTA_EXCEEDED */
        FORBIDDEN: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description IDEMPOTENCY_IN_FLIGHT (retryable) */
        IDEMPOTENCY_IN_FLIGHT: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description IDEMPOTENCY_KEY_REUSED */
        IDEMPOTENCY_KEY_REUSED: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INTERNAL_ERROR (retryable) */
        INTERNAL_ERROR: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description NOT_FOUND */
        NOT_FOUND: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description RATE_LIMITED (retryable) */
        RATE_LIMITED: {
            headers: {
                /** @description Seconds to wait. */
                "Retry-After": number;
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit": number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining": number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset": number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description SERVICE_UNAVAILABLE (retryable) */
        SERVICE_UNAVAILABLE: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description STORAGE_FULL (retryable) */
        STORAGE_FULL: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description TIMEOUT (retryable) */
        TIMEOUT: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNAUTHORIZED */
        UNAUTHORIZED: {
            headers: {
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description VALIDATION_ERROR */
        VALIDATION_ERROR: {
            headers: {
                /** @description Requests allowed in the key's binding window. */
                "X-RateLimit-Limit"?: number;
                /** @description Requests left in that window. */
                "X-RateLimit-Remaining"?: number;
                /** @description Unix time (seconds) when the window next frees capacity. */
                "X-RateLimit-Reset"?: number;
                /** @description The request's id, as in `meta.request_id`. */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    getContext: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Only memories valid then: occurred_at <= as_of, and not yet superseded (valid_to > as_of).
                     */
                    as_of?: string;
                    /** @enum {string} */
                    content_type?: "text" | "conversation" | "document" | "event" | "fact";
                    /**
                     * Format: date-time
                     * @description created_at >= this instant.
                     */
                    created_after?: string;
                    /**
                     * Format: date-time
                     * @description created_at < this instant.
                     */
                    created_before?: string;
                    /**
                     * Format: uuid
                     * @description Only memories linked to this entity.
                     */
                    entity_id?: string;
                    /**
                     * @default text
                     * @enum {string}
                     */
                    format?: "text" | "markdown";
                    /**
                     * @description Add the parents up to the thread root of each match.
                     * @default true
                     */
                    include_ancestors?: boolean;
                    /**
                     * @description Only memories no other memory has superseded.
                     * @default false
                     */
                    latest_only?: boolean;
                    /**
                     * @description Most matches considered.
                     * @default 20
                     */
                    limit?: number;
                    /** @default 2000 */
                    max_tokens?: number;
                    /** @enum {string} */
                    memory_nature?: "episodic" | "semantic";
                    /** @description Equality on top-level metadata keys (any JSON value, compared exactly); all must match. A memory's metadata limits apply (5 levels, 16384 bytes, no reserved key): a filter beyond them could match nothing. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /**
                     * @description Siblings before and after each match.
                     * @default 1
                     */
                    neighbors?: number;
                    /**
                     * Format: date-time
                     * @description occurred_at >= this instant.
                     */
                    occurred_after?: string;
                    /**
                     * Format: date-time
                     * @description occurred_at < this instant.
                     */
                    occurred_before?: string;
                    /**
                     * Format: uuid
                     * @description Only the children of this memory.
                     */
                    parent_memory_id?: string;
                    /** @description Search text; "*" matches every memory, newest first. */
                    query: string;
                    /** @description Tag ids; unknown ids match nothing. An empty list is no filter. */
                    tags?: string[];
                    /**
                     * @description any: carries at least one of `tags`; all: carries every one.
                     * @default any
                     * @enum {string}
                     */
                    tags_match?: "any" | "all";
                    /**
                     * @description Minimum `score` (0..1); 0 keeps the top `limit` whatever their score.
                     * @default 0
                     */
                    threshold?: number;
                    /** @enum {string} */
                    tier?: "short" | "medium" | "long";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ContextOutput"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    listEntities: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description Case-insensitive partial match on name. */
                search?: string;
                type?: "person" | "organization" | "place" | "product" | "event" | "concept" | "other";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Entity"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createEntity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @description Memory ids; repeated ids count once. */
                    memory_ids?: string[];
                    /** @description Free-form JSON object; at most 16384 bytes serialized (UTF-8) and 5 levels deep (the object itself is level 1); no key, at any level, named `__proto__`, `constructor` or `prototype`. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    name: string;
                    /** @enum {string} */
                    type: "person" | "organization" | "place" | "product" | "event" | "concept" | "other";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Entity"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getEntity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Entity"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    deleteEntity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            /** Format: uuid */
                            id: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    updateEntity: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @description Free-form JSON object; at most 16384 bytes serialized (UTF-8) and 5 levels deep (the object itself is level 1); no key, at any level, named `__proto__`, `constructor` or `prototype`. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    name?: string;
                    /** @enum {string} */
                    type?: "person" | "organization" | "place" | "product" | "event" | "concept" | "other";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Entity"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    linkEntityMemories: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Memory ids; repeated ids count once. */
                    memory_ids: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            added: number;
                            /** Format: uuid */
                            entity_id: string;
                            memory_count: number;
                            skipped: number;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    unlinkEntityMemory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            entity_id: string;
                            /** Format: uuid */
                            memory_id: string;
                            removed: boolean;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    listKeys: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description A test key mints test keys only.
                     * @default live
                     * @enum {string}
                     */
                    environment?: "live" | "test";
                    /**
                     * Format: date-time
                     * @description No later than the minting key's expiry (the default).
                     */
                    expires_at?: string;
                    name: string;
                    /**
                     * @description Root key only; other keys mint keys on their own plan.
                     * @enum {string}
                     */
                    plan?: "free" | "pro" | "enterprise" | "self_hosted";
                    /** @description Requests per minute, at most the minting key's limit (the default when the plan's is higher). */
                    rate_limit?: number;
                    /** @description Default: memories:read, memories:write, search:read. Only scopes the minting key holds (`*` from `*`). */
                    scopes?: ("memories:read" | "memories:write" | "search:read" | "admin" | "tokens:create" | "*")[];
                    /** @description Root key only. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedKey"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @constant */
                            revoked: true;
                            /** Format: date-time */
                            revoked_at: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    updateKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description In the future, no later than the calling key's expiry; null = never, if the calling key never expires.
                     */
                    expires_at?: string | null;
                    name?: string;
                    /** @description Requests per minute, at most the calling key's limit; null = the key's plan limit, within it too. */
                    rate_limit?: number | null;
                    /** @description Replaces the key's scopes: only scopes the calling key holds (`*` from `*`). */
                    scopes?: ("memories:read" | "memories:write" | "search:read" | "admin" | "tokens:create" | "*")[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    rotateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description How long the previous secret keeps working; 0 = it stops at once.
                     * @default 0
                     */
                    grace_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedKey"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    listMemories: {
        parameters: {
            query?: {
                content_type?: "text" | "conversation" | "document" | "event" | "fact";
                /** @description Exclusive lower bound on created_at. */
                created_after?: string;
                /** @description Exclusive upper bound on created_at. */
                created_before?: string;
                /** @description Memories linked to this entity. */
                entity_id?: string;
                /** @description Unique per tenant and environment. */
                external_id?: string;
                limit?: number;
                memory_nature?: "episodic" | "semantic";
                /** @description Exclusive lower bound on occurred_at. */
                occurred_after?: string;
                /** @description Exclusive upper bound on occurred_at. */
                occurred_before?: string;
                offset?: number;
                order?: "asc" | "desc";
                /** @description Only the children of this memory. */
                parent_memory_id?: string;
                /** @description true: only roots; false: only memories with a parent. */
                root?: boolean;
                /** @description occurred_at: ties by created_at, then id. */
                sort?: "created_at" | "updated_at" | "occurred_at";
                /** @description Repeatable; memories carrying ALL of these tags. */
                tag_id?: string[];
                tier?: "short" | "medium" | "long";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Memory"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createMemory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100000 characters (UTF-16 code units). */
                    content: string;
                    /**
                     * @default text
                     * @enum {string}
                     */
                    content_type?: "text" | "conversation" | "document" | "event" | "fact";
                    /**
                     * Format: date-time
                     * @description In the future; null = never (no retention default either). Absent: the tier's default.
                     */
                    expires_at?: string | null;
                    /** @description Unique per tenant and environment. */
                    external_id?: string | null;
                    /**
                     * @default episodic
                     * @enum {string}
                     */
                    memory_nature?: "episodic" | "semantic";
                    /** @description Free-form JSON object; at most 16384 bytes serialized (UTF-8) and 5 levels deep (the object itself is level 1); no key, at any level, named `__proto__`, `constructor` or `prototype`. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /**
                     * Format: date-time
                     * @description When the thing happened (default: created_at); orders a thread.
                     */
                    occurred_at?: string;
                    /**
                     * Format: uuid
                     * @description An existing memory of the same tenant; null or absent = a root.
                     */
                    parent_memory_id?: string | null;
                    /**
                     * Format: uuid
                     * @description A memory this one replaces (or the latest of its chain, followed from it).
                     */
                    supersedes?: string;
                    /**
                     * @default medium
                     * @enum {string}
                     */
                    tier?: "short" | "medium" | "long";
                    /** @description Expires this long after creation. */
                    ttl_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Memory"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Memory"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    deleteMemory: {
        parameters: {
            query?: {
                cascade?: boolean;
            };
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            /** @description With cascade=true: memories deleted, the memory itself included. */
                            deleted_count?: number;
                            /** Format: uuid */
                            id: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    updateMemory: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 100000 characters (UTF-16 code units). */
                    content?: string;
                    /** @enum {string} */
                    content_type?: "text" | "conversation" | "document" | "event" | "fact";
                    /**
                     * Format: date-time
                     * @description In the future; null = never.
                     */
                    expires_at?: string | null;
                    /** @description Unique per tenant and environment. */
                    external_id?: string | null;
                    /** @enum {string} */
                    memory_nature?: "episodic" | "semantic";
                    /** @description Replaces the whole metadata object. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /**
                     * Format: date-time
                     * @description When the thing happened (default: created_at); orders a thread.
                     */
                    occurred_at?: string;
                    /**
                     * Format: uuid
                     * @description null makes the memory a root.
                     */
                    parent_memory_id?: string | null;
                    /** @enum {string} */
                    tier?: "short" | "medium" | "long";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Memory"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    attachTags: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Duplicates count once. */
                    tag_ids: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            added: number;
                            /** Format: uuid */
                            memory_id: string;
                            skipped: number;
                            /** @description Every tag now attached, sorted by name. */
                            tags: components["schemas"]["TagRef"][];
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    detachTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                tagId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            memory_id: string;
                            removed: boolean;
                            /** Format: uuid */
                            tag_id: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createMemories: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 500 memories, each checked alone; created in this order. */
                    items: {
                        /** @description 1 to 100000 characters (UTF-16 code units). */
                        content: string;
                        /**
                         * @default text
                         * @enum {string}
                         */
                        content_type?: "text" | "conversation" | "document" | "event" | "fact";
                        /**
                         * Format: date-time
                         * @description In the future; null = never (no retention default either). Absent: the tier's default.
                         */
                        expires_at?: string | null;
                        /** @description Unique per tenant and environment. */
                        external_id?: string | null;
                        /**
                         * @default episodic
                         * @enum {string}
                         */
                        memory_nature?: "episodic" | "semantic";
                        /** @description Free-form JSON object; at most 16384 bytes serialized (UTF-8) and 5 levels deep (the object itself is level 1); no key, at any level, named `__proto__`, `constructor` or `prototype`. */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /**
                         * Format: date-time
                         * @description When the thing happened (default: created_at); orders a thread.
                         */
                        occurred_at?: string;
                        /**
                         * Format: uuid
                         * @description An existing memory of the same tenant; null or absent = a root.
                         */
                        parent_memory_id?: string | null;
                        /** @description The index of an earlier item of the same call: its memory is this one's parent. Not with parent_memory_id. */
                        parent_ref?: number;
                        /**
                         * Format: uuid
                         * @description A memory this one replaces (or the latest of its chain, followed from it).
                         */
                        supersedes?: string;
                        /**
                         * @default medium
                         * @enum {string}
                         */
                        tier?: "short" | "medium" | "long";
                        /** @description Expires this long after creation. */
                        ttl_seconds?: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created: number;
                            failed: number;
                            items: ({
                                data: components["schemas"]["Memory"];
                            } | {
                                error: {
                                    /** @enum {string} */
                                    code: "VALIDATION_ERROR" | "UNAUTHORIZED" | "FORBIDDEN" | "QUOTA_EXCEEDED" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "NOT_ACCEPTABLE" | "IDEMPOTENCY_IN_FLIGHT" | "IDEMPOTENCY_KEY_REUSED" | "RATE_LIMITED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE" | "TIMEOUT" | "STORAGE_FULL";
                                    details?: {
                                        [key: string]: unknown;
                                    };
                                    message: string;
                                };
                            })[];
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    searchMemories: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Only memories valid then: occurred_at <= as_of, and not yet superseded (valid_to > as_of).
                     */
                    as_of?: string;
                    /** @enum {string} */
                    content_type?: "text" | "conversation" | "document" | "event" | "fact";
                    /**
                     * Format: date-time
                     * @description created_at >= this instant.
                     */
                    created_after?: string;
                    /**
                     * Format: date-time
                     * @description created_at < this instant.
                     */
                    created_before?: string;
                    /**
                     * Format: uuid
                     * @description Only memories linked to this entity.
                     */
                    entity_id?: string;
                    /**
                     * @description Only memories no other memory has superseded.
                     * @default false
                     */
                    latest_only?: boolean;
                    /** @default 10 */
                    limit?: number;
                    /** @enum {string} */
                    memory_nature?: "episodic" | "semantic";
                    /** @description Equality on top-level metadata keys (any JSON value, compared exactly); all must match. A memory's metadata limits apply (5 levels, 16384 bytes, no reserved key): a filter beyond them could match nothing. */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /**
                     * Format: date-time
                     * @description occurred_at >= this instant.
                     */
                    occurred_after?: string;
                    /**
                     * Format: date-time
                     * @description occurred_at < this instant.
                     */
                    occurred_before?: string;
                    /**
                     * Format: uuid
                     * @description Only the children of this memory.
                     */
                    parent_memory_id?: string;
                    /** @description Search text; "*" matches every memory, newest first. */
                    query: string;
                    /** @description Tag ids; unknown ids match nothing. An empty list is no filter. */
                    tags?: string[];
                    /**
                     * @description any: carries at least one of `tags`; all: carries every one.
                     * @default any
                     * @enum {string}
                     */
                    tags_match?: "any" | "all";
                    /**
                     * @description Minimum `score` (0..1); 0 keeps the top `limit` whatever their score.
                     * @default 0
                     */
                    threshold?: number;
                    /** @enum {string} */
                    tier?: "short" | "medium" | "long";
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            results: components["schemas"]["SearchResult"][];
                        };
                        meta: components["schemas"]["CountedMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    listTags: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order?: "asc" | "desc";
                /** @description Case-insensitive partial match on the name. */
                search?: string;
                sort?: "name" | "memory_count" | "created_at";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tag"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description #RRGGBB */
                    color?: string | null;
                    description?: string | null;
                    /** @description Unique per tenant+environment, compared case-insensitively. */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tag"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tag"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    deleteTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            /** Format: uuid */
                            id: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    updateTag: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description #RRGGBB */
                    color?: string | null;
                    description?: string | null;
                    /** @description Unique per tenant+environment, compared case-insensitively. */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tag"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getTenant: {
        parameters: {
            query?: {
                /** @description Root key only. */
                environment?: "live" | "test";
                /** @description Root key only. */
                tenant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            cors: {
                                /** @description Browser origins that may call the API with a token that names no origins of its own. */
                                allowed_origins: string[];
                            };
                            /** @enum {string} */
                            environment: "live" | "test";
                            /** @description The root key's override of the plan's storage quotas: memories stored, and bytes of their content + metadata. null = the plan's default; 0 = no limit. */
                            quota: {
                                bytes: number | null;
                                memories: number | null;
                            };
                            /** @description Days a new memory of each tier lives when it is created without expires_at or ttl_seconds; null = forever. */
                            retention: {
                                /** @description When a memory expires, its descendants are purged with it (false: they become roots). */
                                cascade: boolean;
                                long: number | null;
                                medium: number | null;
                                short: number | null;
                            };
                            tenant_id: string;
                            /**
                             * Format: date-time
                             * @description null until the settings are first changed.
                             */
                            updated_at: string | null;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    updateTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cors?: {
                        /** @description Replaces the whole list; [] allows no origin. */
                        allowed_origins?: string[];
                    };
                    /**
                     * @description Root key only.
                     * @enum {string}
                     */
                    environment?: "live" | "test";
                    /** @description Root key only. Only the fields sent change; null = back to the plan's default, 0 = no limit. */
                    quota?: {
                        bytes?: number | null;
                        memories?: number | null;
                    };
                    /** @description Only the fields sent change; null = no default for that tier. */
                    retention?: {
                        cascade?: boolean;
                        long?: number | null;
                        medium?: number | null;
                        short?: number | null;
                    };
                    /** @description Root key only. */
                    tenant_id?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            cors: {
                                /** @description Browser origins that may call the API with a token that names no origins of its own. */
                                allowed_origins: string[];
                            };
                            /** @enum {string} */
                            environment: "live" | "test";
                            /** @description The root key's override of the plan's storage quotas: memories stored, and bytes of their content + metadata. null = the plan's default; 0 = no limit. */
                            quota: {
                                bytes: number | null;
                                memories: number | null;
                            };
                            /** @description Days a new memory of each tier lives when it is created without expires_at or ttl_seconds; null = forever. */
                            retention: {
                                /** @description When a memory expires, its descendants are purged with it (false: they become roots). */
                                cascade: boolean;
                                long: number | null;
                                medium: number | null;
                                short: number | null;
                            };
                            tenant_id: string;
                            /**
                             * Format: date-time
                             * @description null until the settings are first changed.
                             */
                            updated_at: string | null;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Browser origins allowed to use the token; none: the tenant's CORS allow-list applies. */
                    origins?: string[];
                    /** @description The token's own requests per minute, counted besides the minting key's; at most its limit. */
                    rate_limit?: number;
                    /** @description What the token may reach: memories matching every field given. */
                    restrict?: {
                        /** @description Equality on top-level metadata keys, e.g. {"user_id": "u_42"}. */
                        metadata?: {
                            [key: string]: string | number | boolean;
                        };
                        /**
                         * Format: uuid
                         * @description The subtree under this memory, itself included.
                         */
                        root_memory_id?: string;
                        /** @description Memories carrying any of them. */
                        tag_ids?: string[];
                    };
                    /** @description Default: memories:read, search:read. Only scopes the minting key holds; never admin or tokens:create. */
                    scopes?: ("memories:read" | "memories:write" | "search:read" | "admin" | "tokens:create" | "*")[];
                    /** @default 900 */
                    ttl_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            expires_at: string;
                            /** @description What the token may reach: memories matching every field given. */
                            restrict: {
                                /** @description Equality on top-level metadata keys, e.g. {"user_id": "u_42"}. */
                                metadata?: {
                                    [key: string]: string | number | boolean;
                                };
                                /**
                                 * Format: uuid
                                 * @description The subtree under this memory, itself included.
                                 */
                                root_memory_id?: string;
                                /** @description Memories carrying any of them. */
                                tag_ids?: string[];
                            } | null;
                            scopes: ("memories:read" | "memories:write" | "search:read" | "admin" | "tokens:create" | "*")[];
                            /** @description `svc_tok_…`: send it as `Authorization: Bearer <token>`. */
                            token: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                from?: string;
                key_id?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UsageReport"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    /** @description Event types to receive, or ["*"] for all. */
                    events: ("*" | "memory.created" | "memory.updated" | "memory.deleted" | "memory.tags_changed" | "memory.entities_changed")[];
                    /** @description https:// (http:// only for hosts on the operator's allow-list); never a private address. */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedWebhook"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @constant */
                            deleted: true;
                            /** Format: uuid */
                            id: string;
                        };
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    /** @description true also clears a disabled endpoint's failure record. */
                    enabled?: boolean;
                    /** @description Event types to receive, or ["*"] for all. */
                    events?: ("*" | "memory.created" | "memory.updated" | "memory.deleted" | "memory.tags_changed" | "memory.entities_changed")[];
                    /** @description https:// (http:// only for hosts on the operator's allow-list); never a private address. */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                status?: "queued" | "pending" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        meta: components["schemas"]["ListMeta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                deliveryId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedWebhook"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request repeated with the same key (per API key, for 24 hours) answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and runs nothing. The same key with another request is a 422; while the first still runs, a 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description `true` on a replay: the answer of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description On a replay: the request id of the request that ran. */
                    "Original-Request"?: string;
                    /** @description Requests allowed in the key's binding window. */
                    "X-RateLimit-Limit": number;
                    /** @description Requests left in that window. */
                    "X-RateLimit-Remaining": number;
                    /** @description Unix time (seconds) when the window next frees capacity. */
                    "X-RateLimit-Reset": number;
                    /** @description The request's id, as in `meta.request_id`. */
                    "X-Request-Id": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"];
                        meta: components["schemas"]["Meta"];
                    };
                };
            };
            400: components["responses"]["VALIDATION_ERROR"];
            401: components["responses"]["UNAUTHORIZED"];
            403: components["responses"]["FORBIDDEN"];
            404: components["responses"]["NOT_FOUND"];
            409: components["responses"]["IDEMPOTENCY_IN_FLIGHT"];
            422: components["responses"]["IDEMPOTENCY_KEY_REUSED"];
            429: components["responses"]["RATE_LIMITED"];
            500: components["responses"]["INTERNAL_ERROR"];
            503: components["responses"]["SERVICE_UNAVAILABLE"];
            504: components["responses"]["TIMEOUT"];
            507: components["responses"]["STORAGE_FULL"];
        };
    };
}
