// Public API of the voice service: TTS engines (espeak-ng, OpenAI-compatible), STT, spoken answers
// over streamChat, the `voice.*` IPC handlers and the `bureau say` pipeline.

export type { VoiceChatPort, VoiceConversations, VoiceEventSink } from './ask/voiceAsks'
export { detectEspeak, type EspeakStatus } from './espeak/espeakBinary'
export { createEspeakEngine, parseEspeakVoices } from './espeak/espeakEngine'
export { type AudioEndpoint, type ProviderEndpoint, resolveAudioEndpoint } from './openai/audioEndpoint'
export { createOpenAiSpeechEngine, createOpenAiTranscriber } from './openai/openaiAudio'
export { type SpeakTextOptions, speakText } from './say/speakText'
export { createSystemPlayer } from './say/systemPlayer'
export { type AppVoiceOptions, createAppVoice } from './service/createAppVoice'
export {
  createVoiceService,
  type SynthesizeOptions,
  type VoiceService,
  type VoiceServiceOptions,
} from './service/createVoiceService'
export type { SpeechAudio, SpeechEngine, SpeechRequest } from './service/speechEngine'
export { voiceHandlers } from './service/voiceHandlers'
export { concatWav, normalizeWav, parseWav, type WavInfo } from './wav/wavFile'
