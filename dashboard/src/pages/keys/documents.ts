import { graphql } from "../../generated";

export const KeysList = graphql(`
  query KeysList {
    keys(limit: 100) {
      total
      items {
        id
        name
        prefix
        scopes
        rateLimit
        plan
        environment
        expiresAt
        createdAt
        lastUsedAt
        revokedAt
      }
    }
  }
`);

export const CreateKeyMutation = graphql(`
  mutation CreateKey($input: CreateKeyInput!) {
    createKey(input: $input) {
      key
      message
      apiKey {
        id
        prefix
      }
    }
  }
`);

export const UpdateKeyMutation = graphql(`
  mutation UpdateKey($id: ID!, $input: UpdateKeyInput!) {
    updateKey(id: $id, input: $input) {
      id
      scopes
      rateLimit
      expiresAt
    }
  }
`);

export const RotateKeyMutation = graphql(`
  mutation RotateKey($id: ID!, $graceSeconds: Int) {
    rotateKey(id: $id, graceSeconds: $graceSeconds) {
      key
      message
      apiKey {
        id
        prefix
      }
    }
  }
`);

export const RevokeKeyMutation = graphql(`
  mutation RevokeKey($id: ID!) {
    revokeKey(id: $id) {
      id
      revoked
    }
  }
`);
