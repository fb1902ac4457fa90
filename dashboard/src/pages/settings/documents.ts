import { graphql } from "../../generated";

export const TenantCorsQuery = graphql(`
  query TenantCors {
    tenant {
      environment
      cors {
        allowedOrigins
      }
    }
  }
`);

export const UpdateTenantCorsMutation = graphql(`
  mutation UpdateTenantCors($origins: [String!]) {
    updateTenant(input: { cors: { allowedOrigins: $origins } }) {
      cors {
        allowedOrigins
      }
    }
  }
`);
