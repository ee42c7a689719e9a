// Public API of the voice service: TTS engines (espeak-ng, OpenAI-compatible), STT, spoken answers
// over streamChat, the `voice.*` IPC handlers and the `bureau say` pipeline.

export { speakText } from './say/speakText'
export { createSystemPlayer } from './say/systemPlayer'
export { createAppVoice } from './service/createAppVoice'
export { createVoiceService } from './service/createVoiceService'
export type { SpeechAudio } from './service/speechEngine'
export { voiceHandlers } from './service/voiceHandlers'
export { concatWav } from './wav/wavFile'
