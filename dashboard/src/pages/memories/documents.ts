import { graphql } from "../../generated";

export const MemoryRowFields = graphql(`
  fragment MemoryRow on Memory {
    id
    content
    contentType
    tier
    createdAt
    parentMemoryId
    tags {
      id
      name
    }
    children(limit: 1) {
      total
    }
  }
`);

export const MemoriesList = graphql(`
  query MemoriesList($filter: MemoryFilter, $limit: Int, $offset: Int) {
    memories(filter: $filter, limit: $limit, offset: $offset, sort: CREATED_AT, order: DESC) {
      total
      offset
      hasMore
      items {
        ...MemoryRow
      }
    }
  }
`);

export const MemoryChildren = graphql(`
  query MemoryChildren($id: ID!) {
    memory(id: $id) {
      id
      children(limit: 100, sort: OCCURRED_AT, order: ASC) {
        total
        items {
          ...MemoryRow
        }
      }
    }
  }
`);

export const MemoryDetailQuery = graphql(`
  query MemoryDetail($id: ID!) {
    memory(id: $id) {
      id
      content
      contentType
      tier
      memoryNature
      parentMemoryId
      externalId
      metadata
      createdAt
      updatedAt
      occurredAt
      expiresAt
      supersedes
      supersededBy
      tags {
        id
        name
        color
      }
      entities {
        id
        name
        type
      }
      children(limit: 1) {
        total
      }
    }
  }
`);

export const FilterOptions = graphql(`
  query FilterOptions {
    tags(limit: 100, sort: NAME, order: ASC) {
      items {
        id
        name
      }
    }
    entities(limit: 100) {
      items {
        id
        name
        type
      }
    }
  }
`);

export const CreateMemoryMutation = graphql(`
  mutation CreateMemory($input: CreateMemoryInput!) {
    createMemory(input: $input) {
      id
    }
  }
`);

export const UpdateMemoryMutation = graphql(`
  mutation UpdateMemory($id: ID!, $input: UpdateMemoryInput!) {
    updateMemory(id: $id, input: $input) {
      id
      content
      contentType
      tier
      metadata
      updatedAt
    }
  }
`);

export const DeleteMemoryMutation = graphql(`
  mutation DeleteMemory($id: ID!, $cascade: Boolean) {
    deleteMemory(id: $id, cascade: $cascade) {
      id
      deleted
      deletedCount
    }
  }
`);

export const AttachTagsMutation = graphql(`
  mutation AttachTags($memoryId: ID!, $tagIds: [ID!]!) {
    attachTags(memoryId: $memoryId, tagIds: $tagIds) {
      memoryId
      added
    }
  }
`);

export const DetachTagMutation = graphql(`
  mutation DetachTag($memoryId: ID!, $tagId: ID!) {
    detachTag(memoryId: $memoryId, tagId: $tagId) {
      memoryId
      removed
    }
  }
`);
