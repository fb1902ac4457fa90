import { graphql } from "../../generated";

export const EntitiesList = graphql(`
  query EntitiesList($search: String) {
    entities(search: $search, limit: 100) {
      total
      items {
        id
        name
        type
        description
        memoryCount
      }
    }
  }
`);

export const CreateEntityMutation = graphql(`
  mutation CreateEntity($input: CreateEntityInput!) {
    createEntity(input: $input) {
      id
    }
  }
`);

export const UpdateEntityMutation = graphql(`
  mutation UpdateEntity($id: ID!, $input: UpdateEntityInput!) {
    updateEntity(id: $id, input: $input) {
      id
      name
      type
    }
  }
`);

export const DeleteEntityMutation = graphql(`
  mutation DeleteEntity($id: ID!) {
    deleteEntity(id: $id) {
      id
      deleted
    }
  }
`);
