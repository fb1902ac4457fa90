import { graphql } from "../../generated";

export const UsageReportQuery = graphql(`
  query UsageReport($from: String, $to: String, $keyId: ID) {
    usage(from: $from, to: $to, keyId: $keyId) {
      from
      to
      totals {
        requests
        errors
        rateLimited
      }
      byDay {
        day
        requests
        errors
        rateLimited
      }
      byEndpoint {
        endpoint
        requests
        errors
        rateLimited
      }
      byKey {
        keyId
        requests
        errors
        rateLimited
      }
    }
    keys(limit: 100) {
      items {
        id
        name
        prefix
      }
    }
  }
`);
