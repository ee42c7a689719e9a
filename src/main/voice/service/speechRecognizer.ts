/** One utterance for an offline recognizer: 16 kHz mono 16-bit samples. */
export interface RecognitionRequest {
  pcm: Int16Array<ArrayBuffer>
  /** ISO-639-1 code, or undefined for detection (engines that cannot detect use their model's language). */
  language?: string | undefined
  /** Text so far while the engine works through a long utterance. */
  onPartial?: ((text: string) => void) | undefined
}

export interface Recognition {
  text: string
  /** The language the engine used or detected, when it says. */
  language?: string | undefined
}

/** Whether an engine can run here, and if not what it takes. */
export interface EngineState {
  state: 'ready' | 'needs-download' | 'needs-install' | 'unavailable'
  /** What is missing, in words, with the exact command or the model to download. */
  reason?: string | undefined
}

/** A speech-to-text engine run by the host process (or a child of it). */
export interface SpeechRecognizer {
  readonly id: 'whisper' | 'pocketsphinx'
  status(): Promise<EngineState>
  transcribe(request: RecognitionRequest, signal?: AbortSignal): Promise<Recognition>
  dispose(): Promise<void>
}
