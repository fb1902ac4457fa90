import { graphql } from "../../generated";

export const Playground = graphql(`
  query Playground($search: SearchInput!, $context: ContextInput!) {
    search(input: $search) {
      results {
        score
        scores {
          semantic
          lexical
          thread
        }
        memory {
          id
          content
          tier
          contentType
          parentMemoryId
          createdAt
        }
      }
    }
    context(input: $context) {
      context
      tokenCount
      truncated
      memories {
        role
        score
        memory {
          id
        }
      }
      omitted {
        id
        role
        score
      }
    }
  }
`);
