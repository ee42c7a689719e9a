// Public API of the voice service: TTS engines (espeak-ng, Festival, Piper, OpenAI-compatible), STT
// (whisper.cpp, PocketSphinx, OpenAI-compatible), speech models, spoken answers
// over streamChat, the `voice.*` IPC handlers and the `bureau say` pipeline.

export {
  createSpeechModelStore,
  SPEECH_CATALOGUE,
  type SpeechModelEntry,
  type SpeechModelStore,
} from './models/speechModels'
export { speakText } from './say/speakText'
export { createSystemPlayer } from './say/systemPlayer'
export { createAppVoice } from './service/createAppVoice'
export { createVoiceService } from './service/createVoiceService'
export type { SpeechAudio } from './service/speechEngine'
export { voiceHandlers } from './service/voiceHandlers'
export { concatWav } from './wav/wavFile'
