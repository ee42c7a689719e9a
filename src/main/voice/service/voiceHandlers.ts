import type { VoiceMetrics } from '../../../shared/ipc'
import type { HandlerContext } from '../../platform'
import type { SynthesizeOptions, VoiceService } from './createVoiceService'

/** The IPC handlers of the `voice.*` routes, over the voice service. */
export function voiceHandlers(voice: VoiceService) {
  return {
    'voice.engines': () => voice.engines(),
    'voice.synthesize': (input: SynthesizeOptions, ctx: HandlerContext) =>
      voice.synthesize(input, ctx.signal),
    'voice.transcribe': (
      input: { audio: Uint8Array; mimeType: string; language?: string | undefined },
      ctx: HandlerContext,
    ) => voice.transcribe(input, ctx.signal),
    'voice.ask': (input: Parameters<VoiceService['ask']>[0]) => voice.ask(input),
    'voice.cancel': (input: { askId: string }) => ({ cancelled: voice.cancel(input.askId) }),
    'voice.interrupt': async (input: { conversationId: string; messageId: string; spokenText: string }) => ({
      interrupted: await voice.interrupt(input),
    }),
    'voice.metrics': (input: VoiceMetrics) => {
      voice.reportMetrics(input)
      return { logged: true }
    },
  }
}
