/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query EntitiesList($search: String) {\n    entities(search: $search, limit: 100) {\n      total\n      items {\n        id\n        name\n        type\n        description\n        memoryCount\n      }\n    }\n  }\n": typeof types.EntitiesListDocument,
    "\n  mutation CreateEntity($input: CreateEntityInput!) {\n    createEntity(input: $input) {\n      id\n    }\n  }\n": typeof types.CreateEntityDocument,
    "\n  mutation UpdateEntity($id: ID!, $input: UpdateEntityInput!) {\n    updateEntity(id: $id, input: $input) {\n      id\n      name\n      type\n    }\n  }\n": typeof types.UpdateEntityDocument,
    "\n  mutation DeleteEntity($id: ID!) {\n    deleteEntity(id: $id) {\n      id\n      deleted\n    }\n  }\n": typeof types.DeleteEntityDocument,
    "\n  query KeysList {\n    keys(limit: 100) {\n      total\n      items {\n        id\n        name\n        prefix\n        scopes\n        rateLimit\n        plan\n        environment\n        expiresAt\n        createdAt\n        lastUsedAt\n        revokedAt\n      }\n    }\n  }\n": typeof types.KeysListDocument,
    "\n  mutation CreateKey($input: CreateKeyInput!) {\n    createKey(input: $input) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n": typeof types.CreateKeyDocument,
    "\n  mutation UpdateKey($id: ID!, $input: UpdateKeyInput!) {\n    updateKey(id: $id, input: $input) {\n      id\n      scopes\n      rateLimit\n      expiresAt\n    }\n  }\n": typeof types.UpdateKeyDocument,
    "\n  mutation RotateKey($id: ID!, $graceSeconds: Int) {\n    rotateKey(id: $id, graceSeconds: $graceSeconds) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n": typeof types.RotateKeyDocument,
    "\n  mutation RevokeKey($id: ID!) {\n    revokeKey(id: $id) {\n      id\n      revoked\n    }\n  }\n": typeof types.RevokeKeyDocument,
    "\n  subscription MemoryEvents {\n    memoryEvents {\n      type\n      memoryId\n      version\n      changed\n      at\n      reason\n      memory {\n        id\n        content\n        tier\n        contentType\n      }\n    }\n  }\n": typeof types.MemoryEventsDocument,
    "\n  fragment MemoryRow on Memory {\n    id\n    content\n    contentType\n    tier\n    createdAt\n    parentMemoryId\n    tags {\n      id\n      name\n    }\n    children(limit: 1) {\n      total\n    }\n  }\n": typeof types.MemoryRowFragmentDoc,
    "\n  query MemoriesList($filter: MemoryFilter, $limit: Int, $offset: Int) {\n    memories(filter: $filter, limit: $limit, offset: $offset, sort: CREATED_AT, order: DESC) {\n      total\n      offset\n      hasMore\n      items {\n        ...MemoryRow\n      }\n    }\n  }\n": typeof types.MemoriesListDocument,
    "\n  query MemoryChildren($id: ID!) {\n    memory(id: $id) {\n      id\n      children(limit: 100, sort: OCCURRED_AT, order: ASC) {\n        total\n        items {\n          ...MemoryRow\n        }\n      }\n    }\n  }\n": typeof types.MemoryChildrenDocument,
    "\n  query MemoryDetail($id: ID!) {\n    memory(id: $id) {\n      id\n      content\n      contentType\n      tier\n      memoryNature\n      parentMemoryId\n      externalId\n      metadata\n      createdAt\n      updatedAt\n      occurredAt\n      expiresAt\n      supersedes\n      supersededBy\n      tags {\n        id\n        name\n        color\n      }\n      entities {\n        id\n        name\n        type\n      }\n      children(limit: 1) {\n        total\n      }\n    }\n  }\n": typeof types.MemoryDetailDocument,
    "\n  query FilterOptions {\n    tags(limit: 100, sort: NAME, order: ASC) {\n      items {\n        id\n        name\n      }\n    }\n    entities(limit: 100) {\n      items {\n        id\n        name\n        type\n      }\n    }\n  }\n": typeof types.FilterOptionsDocument,
    "\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      id\n    }\n  }\n": typeof types.CreateMemoryDocument,
    "\n  mutation UpdateMemory($id: ID!, $input: UpdateMemoryInput!) {\n    updateMemory(id: $id, input: $input) {\n      id\n      content\n      contentType\n      tier\n      metadata\n      updatedAt\n    }\n  }\n": typeof types.UpdateMemoryDocument,
    "\n  mutation DeleteMemory($id: ID!, $cascade: Boolean) {\n    deleteMemory(id: $id, cascade: $cascade) {\n      id\n      deleted\n      deletedCount\n    }\n  }\n": typeof types.DeleteMemoryDocument,
    "\n  mutation AttachTags($memoryId: ID!, $tagIds: [ID!]!) {\n    attachTags(memoryId: $memoryId, tagIds: $tagIds) {\n      memoryId\n      added\n    }\n  }\n": typeof types.AttachTagsDocument,
    "\n  mutation DetachTag($memoryId: ID!, $tagId: ID!) {\n    detachTag(memoryId: $memoryId, tagId: $tagId) {\n      memoryId\n      removed\n    }\n  }\n": typeof types.DetachTagDocument,
    "\n  query Playground($search: SearchInput!, $context: ContextInput!) {\n    search(input: $search) {\n      results {\n        score\n        scores {\n          semantic\n          lexical\n          thread\n        }\n        memory {\n          id\n          content\n          tier\n          contentType\n          parentMemoryId\n          createdAt\n        }\n      }\n    }\n    context(input: $context) {\n      context\n      tokenCount\n      truncated\n      memories {\n        role\n        score\n        memory {\n          id\n        }\n      }\n      omitted {\n        id\n        role\n        score\n      }\n    }\n  }\n": typeof types.PlaygroundDocument,
    "\n  query TenantCors {\n    tenant {\n      environment\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n": typeof types.TenantCorsDocument,
    "\n  mutation UpdateTenantCors($origins: [String!]) {\n    updateTenant(input: { cors: { allowedOrigins: $origins } }) {\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n": typeof types.UpdateTenantCorsDocument,
    "\n  query TagsList($search: String) {\n    tags(search: $search, limit: 100, sort: NAME, order: ASC) {\n      total\n      items {\n        id\n        name\n        color\n        description\n        memoryCount\n      }\n    }\n  }\n": typeof types.TagsListDocument,
    "\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      id\n    }\n  }\n": typeof types.CreateTagDocument,
    "\n  mutation UpdateTag($id: ID!, $input: UpdateTagInput!) {\n    updateTag(id: $id, input: $input) {\n      id\n      name\n      color\n    }\n  }\n": typeof types.UpdateTagDocument,
    "\n  mutation DeleteTag($id: ID!) {\n    deleteTag(id: $id) {\n      id\n      deleted\n    }\n  }\n": typeof types.DeleteTagDocument,
    "\n  query UsageReport($from: String, $to: String, $keyId: ID) {\n    usage(from: $from, to: $to, keyId: $keyId) {\n      from\n      to\n      totals {\n        requests\n        errors\n        rateLimited\n      }\n      byDay {\n        day\n        requests\n        errors\n        rateLimited\n      }\n      byEndpoint {\n        endpoint\n        requests\n        errors\n        rateLimited\n      }\n      byKey {\n        keyId\n        requests\n        errors\n        rateLimited\n      }\n      storage {\n        memories\n        bytes\n        limits {\n          memories\n          bytes\n        }\n      }\n    }\n    keys(limit: 100) {\n      items {\n        id\n        name\n        prefix\n      }\n    }\n  }\n": typeof types.UsageReportDocument,
};
const documents: Documents = {
    "\n  query EntitiesList($search: String) {\n    entities(search: $search, limit: 100) {\n      total\n      items {\n        id\n        name\n        type\n        description\n        memoryCount\n      }\n    }\n  }\n": types.EntitiesListDocument,
    "\n  mutation CreateEntity($input: CreateEntityInput!) {\n    createEntity(input: $input) {\n      id\n    }\n  }\n": types.CreateEntityDocument,
    "\n  mutation UpdateEntity($id: ID!, $input: UpdateEntityInput!) {\n    updateEntity(id: $id, input: $input) {\n      id\n      name\n      type\n    }\n  }\n": types.UpdateEntityDocument,
    "\n  mutation DeleteEntity($id: ID!) {\n    deleteEntity(id: $id) {\n      id\n      deleted\n    }\n  }\n": types.DeleteEntityDocument,
    "\n  query KeysList {\n    keys(limit: 100) {\n      total\n      items {\n        id\n        name\n        prefix\n        scopes\n        rateLimit\n        plan\n        environment\n        expiresAt\n        createdAt\n        lastUsedAt\n        revokedAt\n      }\n    }\n  }\n": types.KeysListDocument,
    "\n  mutation CreateKey($input: CreateKeyInput!) {\n    createKey(input: $input) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n": types.CreateKeyDocument,
    "\n  mutation UpdateKey($id: ID!, $input: UpdateKeyInput!) {\n    updateKey(id: $id, input: $input) {\n      id\n      scopes\n      rateLimit\n      expiresAt\n    }\n  }\n": types.UpdateKeyDocument,
    "\n  mutation RotateKey($id: ID!, $graceSeconds: Int) {\n    rotateKey(id: $id, graceSeconds: $graceSeconds) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n": types.RotateKeyDocument,
    "\n  mutation RevokeKey($id: ID!) {\n    revokeKey(id: $id) {\n      id\n      revoked\n    }\n  }\n": types.RevokeKeyDocument,
    "\n  subscription MemoryEvents {\n    memoryEvents {\n      type\n      memoryId\n      version\n      changed\n      at\n      reason\n      memory {\n        id\n        content\n        tier\n        contentType\n      }\n    }\n  }\n": types.MemoryEventsDocument,
    "\n  fragment MemoryRow on Memory {\n    id\n    content\n    contentType\n    tier\n    createdAt\n    parentMemoryId\n    tags {\n      id\n      name\n    }\n    children(limit: 1) {\n      total\n    }\n  }\n": types.MemoryRowFragmentDoc,
    "\n  query MemoriesList($filter: MemoryFilter, $limit: Int, $offset: Int) {\n    memories(filter: $filter, limit: $limit, offset: $offset, sort: CREATED_AT, order: DESC) {\n      total\n      offset\n      hasMore\n      items {\n        ...MemoryRow\n      }\n    }\n  }\n": types.MemoriesListDocument,
    "\n  query MemoryChildren($id: ID!) {\n    memory(id: $id) {\n      id\n      children(limit: 100, sort: OCCURRED_AT, order: ASC) {\n        total\n        items {\n          ...MemoryRow\n        }\n      }\n    }\n  }\n": types.MemoryChildrenDocument,
    "\n  query MemoryDetail($id: ID!) {\n    memory(id: $id) {\n      id\n      content\n      contentType\n      tier\n      memoryNature\n      parentMemoryId\n      externalId\n      metadata\n      createdAt\n      updatedAt\n      occurredAt\n      expiresAt\n      supersedes\n      supersededBy\n      tags {\n        id\n        name\n        color\n      }\n      entities {\n        id\n        name\n        type\n      }\n      children(limit: 1) {\n        total\n      }\n    }\n  }\n": types.MemoryDetailDocument,
    "\n  query FilterOptions {\n    tags(limit: 100, sort: NAME, order: ASC) {\n      items {\n        id\n        name\n      }\n    }\n    entities(limit: 100) {\n      items {\n        id\n        name\n        type\n      }\n    }\n  }\n": types.FilterOptionsDocument,
    "\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      id\n    }\n  }\n": types.CreateMemoryDocument,
    "\n  mutation UpdateMemory($id: ID!, $input: UpdateMemoryInput!) {\n    updateMemory(id: $id, input: $input) {\n      id\n      content\n      contentType\n      tier\n      metadata\n      updatedAt\n    }\n  }\n": types.UpdateMemoryDocument,
    "\n  mutation DeleteMemory($id: ID!, $cascade: Boolean) {\n    deleteMemory(id: $id, cascade: $cascade) {\n      id\n      deleted\n      deletedCount\n    }\n  }\n": types.DeleteMemoryDocument,
    "\n  mutation AttachTags($memoryId: ID!, $tagIds: [ID!]!) {\n    attachTags(memoryId: $memoryId, tagIds: $tagIds) {\n      memoryId\n      added\n    }\n  }\n": types.AttachTagsDocument,
    "\n  mutation DetachTag($memoryId: ID!, $tagId: ID!) {\n    detachTag(memoryId: $memoryId, tagId: $tagId) {\n      memoryId\n      removed\n    }\n  }\n": types.DetachTagDocument,
    "\n  query Playground($search: SearchInput!, $context: ContextInput!) {\n    search(input: $search) {\n      results {\n        score\n        scores {\n          semantic\n          lexical\n          thread\n        }\n        memory {\n          id\n          content\n          tier\n          contentType\n          parentMemoryId\n          createdAt\n        }\n      }\n    }\n    context(input: $context) {\n      context\n      tokenCount\n      truncated\n      memories {\n        role\n        score\n        memory {\n          id\n        }\n      }\n      omitted {\n        id\n        role\n        score\n      }\n    }\n  }\n": types.PlaygroundDocument,
    "\n  query TenantCors {\n    tenant {\n      environment\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n": types.TenantCorsDocument,
    "\n  mutation UpdateTenantCors($origins: [String!]) {\n    updateTenant(input: { cors: { allowedOrigins: $origins } }) {\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n": types.UpdateTenantCorsDocument,
    "\n  query TagsList($search: String) {\n    tags(search: $search, limit: 100, sort: NAME, order: ASC) {\n      total\n      items {\n        id\n        name\n        color\n        description\n        memoryCount\n      }\n    }\n  }\n": types.TagsListDocument,
    "\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      id\n    }\n  }\n": types.CreateTagDocument,
    "\n  mutation UpdateTag($id: ID!, $input: UpdateTagInput!) {\n    updateTag(id: $id, input: $input) {\n      id\n      name\n      color\n    }\n  }\n": types.UpdateTagDocument,
    "\n  mutation DeleteTag($id: ID!) {\n    deleteTag(id: $id) {\n      id\n      deleted\n    }\n  }\n": types.DeleteTagDocument,
    "\n  query UsageReport($from: String, $to: String, $keyId: ID) {\n    usage(from: $from, to: $to, keyId: $keyId) {\n      from\n      to\n      totals {\n        requests\n        errors\n        rateLimited\n      }\n      byDay {\n        day\n        requests\n        errors\n        rateLimited\n      }\n      byEndpoint {\n        endpoint\n        requests\n        errors\n        rateLimited\n      }\n      byKey {\n        keyId\n        requests\n        errors\n        rateLimited\n      }\n      storage {\n        memories\n        bytes\n        limits {\n          memories\n          bytes\n        }\n      }\n    }\n    keys(limit: 100) {\n      items {\n        id\n        name\n        prefix\n      }\n    }\n  }\n": types.UsageReportDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EntitiesList($search: String) {\n    entities(search: $search, limit: 100) {\n      total\n      items {\n        id\n        name\n        type\n        description\n        memoryCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query EntitiesList($search: String) {\n    entities(search: $search, limit: 100) {\n      total\n      items {\n        id\n        name\n        type\n        description\n        memoryCount\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateEntity($input: CreateEntityInput!) {\n    createEntity(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation CreateEntity($input: CreateEntityInput!) {\n    createEntity(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateEntity($id: ID!, $input: UpdateEntityInput!) {\n    updateEntity(id: $id, input: $input) {\n      id\n      name\n      type\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateEntity($id: ID!, $input: UpdateEntityInput!) {\n    updateEntity(id: $id, input: $input) {\n      id\n      name\n      type\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteEntity($id: ID!) {\n    deleteEntity(id: $id) {\n      id\n      deleted\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteEntity($id: ID!) {\n    deleteEntity(id: $id) {\n      id\n      deleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KeysList {\n    keys(limit: 100) {\n      total\n      items {\n        id\n        name\n        prefix\n        scopes\n        rateLimit\n        plan\n        environment\n        expiresAt\n        createdAt\n        lastUsedAt\n        revokedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query KeysList {\n    keys(limit: 100) {\n      total\n      items {\n        id\n        name\n        prefix\n        scopes\n        rateLimit\n        plan\n        environment\n        expiresAt\n        createdAt\n        lastUsedAt\n        revokedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateKey($input: CreateKeyInput!) {\n    createKey(input: $input) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateKey($input: CreateKeyInput!) {\n    createKey(input: $input) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateKey($id: ID!, $input: UpdateKeyInput!) {\n    updateKey(id: $id, input: $input) {\n      id\n      scopes\n      rateLimit\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateKey($id: ID!, $input: UpdateKeyInput!) {\n    updateKey(id: $id, input: $input) {\n      id\n      scopes\n      rateLimit\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateKey($id: ID!, $graceSeconds: Int) {\n    rotateKey(id: $id, graceSeconds: $graceSeconds) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateKey($id: ID!, $graceSeconds: Int) {\n    rotateKey(id: $id, graceSeconds: $graceSeconds) {\n      key\n      message\n      apiKey {\n        id\n        prefix\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeKey($id: ID!) {\n    revokeKey(id: $id) {\n      id\n      revoked\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeKey($id: ID!) {\n    revokeKey(id: $id) {\n      id\n      revoked\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MemoryEvents {\n    memoryEvents {\n      type\n      memoryId\n      version\n      changed\n      at\n      reason\n      memory {\n        id\n        content\n        tier\n        contentType\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription MemoryEvents {\n    memoryEvents {\n      type\n      memoryId\n      version\n      changed\n      at\n      reason\n      memory {\n        id\n        content\n        tier\n        contentType\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MemoryRow on Memory {\n    id\n    content\n    contentType\n    tier\n    createdAt\n    parentMemoryId\n    tags {\n      id\n      name\n    }\n    children(limit: 1) {\n      total\n    }\n  }\n"): (typeof documents)["\n  fragment MemoryRow on Memory {\n    id\n    content\n    contentType\n    tier\n    createdAt\n    parentMemoryId\n    tags {\n      id\n      name\n    }\n    children(limit: 1) {\n      total\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoriesList($filter: MemoryFilter, $limit: Int, $offset: Int) {\n    memories(filter: $filter, limit: $limit, offset: $offset, sort: CREATED_AT, order: DESC) {\n      total\n      offset\n      hasMore\n      items {\n        ...MemoryRow\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoriesList($filter: MemoryFilter, $limit: Int, $offset: Int) {\n    memories(filter: $filter, limit: $limit, offset: $offset, sort: CREATED_AT, order: DESC) {\n      total\n      offset\n      hasMore\n      items {\n        ...MemoryRow\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryChildren($id: ID!) {\n    memory(id: $id) {\n      id\n      children(limit: 100, sort: OCCURRED_AT, order: ASC) {\n        total\n        items {\n          ...MemoryRow\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoryChildren($id: ID!) {\n    memory(id: $id) {\n      id\n      children(limit: 100, sort: OCCURRED_AT, order: ASC) {\n        total\n        items {\n          ...MemoryRow\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryDetail($id: ID!) {\n    memory(id: $id) {\n      id\n      content\n      contentType\n      tier\n      memoryNature\n      parentMemoryId\n      externalId\n      metadata\n      createdAt\n      updatedAt\n      occurredAt\n      expiresAt\n      supersedes\n      supersededBy\n      tags {\n        id\n        name\n        color\n      }\n      entities {\n        id\n        name\n        type\n      }\n      children(limit: 1) {\n        total\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoryDetail($id: ID!) {\n    memory(id: $id) {\n      id\n      content\n      contentType\n      tier\n      memoryNature\n      parentMemoryId\n      externalId\n      metadata\n      createdAt\n      updatedAt\n      occurredAt\n      expiresAt\n      supersedes\n      supersededBy\n      tags {\n        id\n        name\n        color\n      }\n      entities {\n        id\n        name\n        type\n      }\n      children(limit: 1) {\n        total\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FilterOptions {\n    tags(limit: 100, sort: NAME, order: ASC) {\n      items {\n        id\n        name\n      }\n    }\n    entities(limit: 100) {\n      items {\n        id\n        name\n        type\n      }\n    }\n  }\n"): (typeof documents)["\n  query FilterOptions {\n    tags(limit: 100, sort: NAME, order: ASC) {\n      items {\n        id\n        name\n      }\n    }\n    entities(limit: 100) {\n      items {\n        id\n        name\n        type\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateMemory($id: ID!, $input: UpdateMemoryInput!) {\n    updateMemory(id: $id, input: $input) {\n      id\n      content\n      contentType\n      tier\n      metadata\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateMemory($id: ID!, $input: UpdateMemoryInput!) {\n    updateMemory(id: $id, input: $input) {\n      id\n      content\n      contentType\n      tier\n      metadata\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteMemory($id: ID!, $cascade: Boolean) {\n    deleteMemory(id: $id, cascade: $cascade) {\n      id\n      deleted\n      deletedCount\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteMemory($id: ID!, $cascade: Boolean) {\n    deleteMemory(id: $id, cascade: $cascade) {\n      id\n      deleted\n      deletedCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AttachTags($memoryId: ID!, $tagIds: [ID!]!) {\n    attachTags(memoryId: $memoryId, tagIds: $tagIds) {\n      memoryId\n      added\n    }\n  }\n"): (typeof documents)["\n  mutation AttachTags($memoryId: ID!, $tagIds: [ID!]!) {\n    attachTags(memoryId: $memoryId, tagIds: $tagIds) {\n      memoryId\n      added\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DetachTag($memoryId: ID!, $tagId: ID!) {\n    detachTag(memoryId: $memoryId, tagId: $tagId) {\n      memoryId\n      removed\n    }\n  }\n"): (typeof documents)["\n  mutation DetachTag($memoryId: ID!, $tagId: ID!) {\n    detachTag(memoryId: $memoryId, tagId: $tagId) {\n      memoryId\n      removed\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Playground($search: SearchInput!, $context: ContextInput!) {\n    search(input: $search) {\n      results {\n        score\n        scores {\n          semantic\n          lexical\n          thread\n        }\n        memory {\n          id\n          content\n          tier\n          contentType\n          parentMemoryId\n          createdAt\n        }\n      }\n    }\n    context(input: $context) {\n      context\n      tokenCount\n      truncated\n      memories {\n        role\n        score\n        memory {\n          id\n        }\n      }\n      omitted {\n        id\n        role\n        score\n      }\n    }\n  }\n"): (typeof documents)["\n  query Playground($search: SearchInput!, $context: ContextInput!) {\n    search(input: $search) {\n      results {\n        score\n        scores {\n          semantic\n          lexical\n          thread\n        }\n        memory {\n          id\n          content\n          tier\n          contentType\n          parentMemoryId\n          createdAt\n        }\n      }\n    }\n    context(input: $context) {\n      context\n      tokenCount\n      truncated\n      memories {\n        role\n        score\n        memory {\n          id\n        }\n      }\n      omitted {\n        id\n        role\n        score\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TenantCors {\n    tenant {\n      environment\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n"): (typeof documents)["\n  query TenantCors {\n    tenant {\n      environment\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateTenantCors($origins: [String!]) {\n    updateTenant(input: { cors: { allowedOrigins: $origins } }) {\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateTenantCors($origins: [String!]) {\n    updateTenant(input: { cors: { allowedOrigins: $origins } }) {\n      cors {\n        allowedOrigins\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TagsList($search: String) {\n    tags(search: $search, limit: 100, sort: NAME, order: ASC) {\n      total\n      items {\n        id\n        name\n        color\n        description\n        memoryCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query TagsList($search: String) {\n    tags(search: $search, limit: 100, sort: NAME, order: ASC) {\n      total\n      items {\n        id\n        name\n        color\n        description\n        memoryCount\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      id\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTag($input: CreateTagInput!) {\n    createTag(input: $input) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateTag($id: ID!, $input: UpdateTagInput!) {\n    updateTag(id: $id, input: $input) {\n      id\n      name\n      color\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateTag($id: ID!, $input: UpdateTagInput!) {\n    updateTag(id: $id, input: $input) {\n      id\n      name\n      color\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteTag($id: ID!) {\n    deleteTag(id: $id) {\n      id\n      deleted\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteTag($id: ID!) {\n    deleteTag(id: $id) {\n      id\n      deleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UsageReport($from: String, $to: String, $keyId: ID) {\n    usage(from: $from, to: $to, keyId: $keyId) {\n      from\n      to\n      totals {\n        requests\n        errors\n        rateLimited\n      }\n      byDay {\n        day\n        requests\n        errors\n        rateLimited\n      }\n      byEndpoint {\n        endpoint\n        requests\n        errors\n        rateLimited\n      }\n      byKey {\n        keyId\n        requests\n        errors\n        rateLimited\n      }\n      storage {\n        memories\n        bytes\n        limits {\n          memories\n          bytes\n        }\n      }\n    }\n    keys(limit: 100) {\n      items {\n        id\n        name\n        prefix\n      }\n    }\n  }\n"): (typeof documents)["\n  query UsageReport($from: String, $to: String, $keyId: ID) {\n    usage(from: $from, to: $to, keyId: $keyId) {\n      from\n      to\n      totals {\n        requests\n        errors\n        rateLimited\n      }\n      byDay {\n        day\n        requests\n        errors\n        rateLimited\n      }\n      byEndpoint {\n        endpoint\n        requests\n        errors\n        rateLimited\n      }\n      byKey {\n        keyId\n        requests\n        errors\n        rateLimited\n      }\n      storage {\n        memories\n        bytes\n        limits {\n          memories\n          bytes\n        }\n      }\n    }\n    keys(limit: 100) {\n      items {\n        id\n        name\n        prefix\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;