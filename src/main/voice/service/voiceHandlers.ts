import { AppError } from '../../../shared/errors'
import type { VoiceMetrics } from '../../../shared/ipc'
import type { HandlerContext } from '../../platform'
import type { SynthesizeOptions, VoiceService } from './createVoiceService'

/** The IPC handlers of the `voice.*` routes, over the voice service. */
export function voiceHandlers(voice: VoiceService) {
  const models = () => {
    if (!voice.modelDownloads)
      throw new AppError('UNAVAILABLE', 'This host keeps no speech models (it has no data folder).')
    return voice.modelDownloads
  }
  return {
    'voice.engines': () => voice.engines(),
    'voice.synthesize': (input: SynthesizeOptions, ctx: HandlerContext) =>
      voice.synthesize(input, ctx.signal),
    'voice.transcribe': (
      input: {
        audio: Uint8Array
        mimeType: string
        language?: string | undefined
        requestId?: string | undefined
      },
      ctx: HandlerContext,
    ) => voice.transcribe(input, ctx.signal),
    'voice.ask': (input: Parameters<VoiceService['ask']>[0]) => voice.ask(input),
    'voice.cancel': (input: { askId: string }) => ({ cancelled: voice.cancel(input.askId) }),
    'voice.interrupt': async (input: { conversationId: string; messageId: string; spokenText: string }) => ({
      interrupted: await voice.interrupt(input),
    }),
    'voice.models': () => models().list(),
    'voice.models.pull': (input: { id: string }) => models().pull(input.id),
    'voice.models.cancel': (input: { id: string }) => models().cancel(input.id),
    'voice.models.remove': (input: { id: string }) => models().remove(input.id),
    'voice.metrics': (input: VoiceMetrics) => {
      voice.reportMetrics(input)
      return { logged: true }
    },
  }
}
