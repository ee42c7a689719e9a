import type { z } from 'zod'

/** A request/response route: input validated before dispatch, output validated before it is sent. */
export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
  /** One line for generated docs and error messages. */
  summary: string
}

export type RouteMap = Record<string, RouteDef>
export type EventMap = Record<string, z.ZodType>

export function route<I extends z.ZodType, O extends z.ZodType>(def: RouteDef<I, O>): RouteDef<I, O> {
  return def
}

/** What a caller passes (before defaults are applied). */
export type RouteInput<R extends RouteMap, K extends keyof R> = z.input<R[K]['input']>
/** What a handler receives (after validation and defaults). */
export type RouteParsedInput<R extends RouteMap, K extends keyof R> = z.output<R[K]['input']>
/** What a caller gets back. */
export type RouteOutput<R extends RouteMap, K extends keyof R> = z.output<R[K]['output']>
export type EventPayload<E extends EventMap, K extends keyof E> = z.output<E[K]>
