import { AppError, type ErrorCode, isAppError } from '../../../shared/errors'
import type { CoreSettings } from '../convertCore'
import { ConvertError, type ConvertFailure, FormatProblem } from '../errors'
import type { ConvertFormat, ConvertResult, FormatLimits } from '../types'
import { VisionUnavailable } from '../visionFallback'

// Messages between the converter (main thread) and its worker. Both ends are this module's code, so
// the types are the contract; errors cross as plain data and are rebuilt as the same classes.

export interface ConvertJob {
  type: 'convert'
  input: { name: string; bytes: Uint8Array }
  settings: CoreSettings
  limits: Record<ConvertFormat, FormatLimits>
  timeoutMs: number
  hasOcr: boolean
  hasVision: boolean
}

/** The worker asks the main thread to read a picture (OCR and vision models live there). */
export interface HookCall {
  type: 'call'
  callId: number
  kind: 'ocr' | 'vision'
  image: { name: string; bytes: Uint8Array; mimeType: string }
}

export type HookReply =
  | { type: 'reply'; callId: number; ok: true; text: string }
  | { type: 'reply'; callId: number; ok: false; error: WireError }

/**
 * `stillRunning`: the job's deadline passed while its conversion went on (it stops at its next
 * checkpoint, or never if it is stuck in synchronous work), so the worker must not take another job.
 */
export type JobOutcome =
  | { type: 'done'; result: ConvertResult }
  | { type: 'failed'; failure: WireFailure; stillRunning: boolean }

/** Load the libraries of these formats now, before a job needs them (a batch's first files). */
export interface WarmUp {
  type: 'warm'
  formats: ConvertFormat[]
}

export type ToWorker = ConvertJob | HookReply | WarmUp
export type FromWorker = HookCall | JobOutcome

export type WireError =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'app'; code: ErrorCode; message: string }
  | { kind: 'abort'; message: string }
  | { kind: 'other'; message: string }

export type WireFailure =
  | { kind: 'convert'; fileName: string; failure: ConvertFailure; reason: string }
  | { kind: 'problem'; failure: ConvertFailure; message: string }

export function errorToWire(error: unknown): WireError {
  if (error instanceof VisionUnavailable) return { kind: 'unavailable', reason: error.reason }
  if (isAppError(error)) return { kind: 'app', code: error.code, message: error.message }
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'abort', message }
  return { kind: 'other', message }
}

export function errorFromWire(wire: WireError): Error {
  if (wire.kind === 'unavailable') return new VisionUnavailable(wire.reason)
  if (wire.kind === 'app') return new AppError(wire.code, wire.message)
  const error = new Error(wire.message)
  if (wire.kind === 'abort') error.name = 'AbortError'
  return error
}

export function failureToWire(error: ConvertError | FormatProblem): WireFailure {
  return error instanceof ConvertError
    ? { kind: 'convert', fileName: error.fileName, failure: error.failure, reason: error.reason }
    : { kind: 'problem', failure: error.failure, message: error.message }
}

export function failureFromWire(wire: WireFailure): ConvertError | FormatProblem {
  return wire.kind === 'convert'
    ? new ConvertError(wire.fileName, wire.failure, wire.reason)
    : new FormatProblem(wire.failure, wire.message)
}
