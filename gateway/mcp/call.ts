import type { TSchema } from "@sinclair/typebox";
import type { InputOf, Operation, OutputOf } from "../../services/contract/op";
import { callOperation, type CallerContext } from "../http/exchange/operation-call";

/** A contract operation run on behalf of the MCP caller (scope check, then the bus). */
export type OperationCall = <Op extends Operation<TSchema, TSchema>>(
  op: Op,
  input: InputOf<Op>,
) => Promise<OutputOf<Op>>;

/** Runs contract operations as the MCP session's caller: what the tools call. */
export const operationCallerOf =
  (ctx: CallerContext): OperationCall =>
  (op, input) =>
    callOperation(ctx, op, input);
