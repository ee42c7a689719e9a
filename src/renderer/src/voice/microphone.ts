import { levelDb } from '../../../shared/voice'
import type { MicrophonePort, RecordedAudio } from './voicePorts'

const RECORDER_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4']

function recorderType(): string | undefined {
  if (typeof MediaRecorder === 'undefined') return undefined
  return RECORDER_TYPES.find((type) => MediaRecorder.isTypeSupported(type))
}

/** Why the microphone could not be opened, in words a user can act on. */
export function microphoneProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'Microphone access was refused. Allow it for Bureau (in the browser: the icon in the address bar).'
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No microphone was found. Connect one and try again.'
  if (name === 'NotReadableError') return 'The microphone is busy in another application.'
  if (typeof navigator === 'undefined' || !navigator.mediaDevices)
    return 'This window cannot use a microphone (the web host needs http://127.0.0.1 or https).'
  return `The microphone could not be opened${error instanceof Error && error.message ? `: ${error.message}` : '.'}`
}

/**
 * The microphone: an AudioContext analyser reports the level every `intervalMs`, and a MediaRecorder
 * records utterances on demand. Echo cancellation keeps Bureau's own voice out of barge-in detection.
 */
export class Microphone implements MicrophonePort {
  private recorder: MediaRecorder | undefined
  private chunks: Blob[] = []
  private timer: ReturnType<typeof setInterval> | undefined
  private since: number | undefined

  private constructor(
    private readonly stream: MediaStream,
    private readonly context: AudioContext,
    private readonly now: () => number,
  ) {}

  static async open(options: {
    onLevel(db: number): void
    intervalMs?: number
    now(): number
  }): Promise<Microphone> {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    })
    const context = new AudioContext()
    const analyser = context.createAnalyser()
    analyser.fftSize = 2048
    context.createMediaStreamSource(stream).connect(analyser)
    const mic = new Microphone(stream, context, options.now)
    const samples = new Float32Array(analyser.fftSize)
    mic.timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples)
      options.onLevel(levelDb(samples))
    }, options.intervalMs ?? 50)
    return mic
  }

  get recording(): boolean {
    return this.recorder?.state === 'recording'
  }

  get recordingSince(): number | undefined {
    return this.recording ? this.since : undefined
  }

  startRecording(): void {
    if (this.recording) return
    const type = recorderType()
    this.recorder = new MediaRecorder(this.stream, type ? { mimeType: type } : undefined)
    this.chunks = []
    this.recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data)
    }
    this.recorder.start(250)
    this.since = this.now()
  }

  stopRecording(): Promise<RecordedAudio | undefined> {
    const recorder = this.recorder
    if (!recorder || recorder.state === 'inactive') return Promise.resolve(undefined)
    this.recorder = undefined
    return new Promise((resolve) => {
      recorder.onstop = async () => {
        const mimeType = recorder.mimeType || 'audio/webm'
        const blob = new Blob(this.chunks, { type: mimeType })
        resolve(blob.size > 0 ? { bytes: new Uint8Array(await blob.arrayBuffer()), mimeType } : undefined)
      }
      recorder.stop()
    })
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop()
    for (const track of this.stream.getTracks()) track.stop()
    void this.context.close()
  }
}
