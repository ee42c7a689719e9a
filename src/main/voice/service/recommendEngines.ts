import type { VoiceEngineInfo, VoiceEngines } from '../../../shared/ipc'

/** Best first among the offline engines: neural before system voices, whisper before PocketSphinx. */
const OFFLINE_TTS = ['piper', 'festival', 'espeak-ng']
const OFFLINE_STT = ['whisper', 'pocketsphinx']

function pick(list: VoiceEngineInfo[], offline: string[], local: boolean): string | undefined {
  const ready = (id: string) => list.find((e) => e.id === id && e.available)
  const bestOffline = offline.find((id) => ready(id))
  // A cloud provider that offers speech keeps the user's words where the chat already goes; a local
  // one keeps them on this computer. Nothing reaches a cloud engine unless the user chose it.
  if (!local && ready('openai')) return 'openai'
  return bestOffline
}

/** Marks the engine Bureau recommends in each list for the active provider. */
export function recommendEngines(engines: VoiceEngines, providerIsLocal: boolean): VoiceEngines {
  const mark = (list: VoiceEngineInfo[], offline: string[]) => {
    const chosen = pick(list, offline, providerIsLocal)
    return list.map((e) => ({ ...e, recommended: e.id === chosen }))
  }
  return { tts: mark(engines.tts, OFFLINE_TTS), stt: mark(engines.stt, OFFLINE_STT) }
}
