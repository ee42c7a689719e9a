/** One sentence to speak. */
export interface SpeechRequest {
  text: string
  voice?: string | undefined
  /** 1 = normal speed. */
  rate?: number | undefined
}

export interface SpeechAudio {
  audio: Uint8Array<ArrayBuffer>
  mimeType: string
}

/** A TTS engine run by the host process. */
export interface SpeechEngine {
  readonly id: 'espeak-ng' | 'openai' | 'festival' | 'piper'
  synthesize(request: SpeechRequest, signal?: AbortSignal): Promise<SpeechAudio>
}
