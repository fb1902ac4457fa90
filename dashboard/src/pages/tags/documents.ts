import { graphql } from "../../generated";

export const TagsList = graphql(`
  query TagsList($search: String) {
    tags(search: $search, limit: 100, sort: NAME, order: ASC) {
      total
      items {
        id
        name
        color
        description
        memoryCount
      }
    }
  }
`);

export const CreateTagMutation = graphql(`
  mutation CreateTag($input: CreateTagInput!) {
    createTag(input: $input) {
      id
    }
  }
`);

export const UpdateTagMutation = graphql(`
  mutation UpdateTag($id: ID!, $input: UpdateTagInput!) {
    updateTag(id: $id, input: $input) {
      id
      name
      color
    }
  }
`);

export const DeleteTagMutation = graphql(`
  mutation DeleteTag($id: ID!) {
    deleteTag(id: $id) {
      id
      deleted
    }
  }
`);
