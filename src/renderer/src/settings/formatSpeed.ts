import type { SpeedEstimate } from '../../../shared/ipc'

function words(value: number): string {
  if (value < 1) return 'less than 1 word'
  const rounded = value < 3 ? Math.round(value * 10) / 10 : Math.round(value)
  return `about ${rounded} word${rounded === 1 ? '' : 's'}`
}

/** "About 4 words per second on this computer (estimate)", plus a note when a GPU will make it faster. */
export function formatSpeed(speed: SpeedEstimate): string {
  const text = `${words(speed.wordsPerSecond)} per second on this computer (estimate)`
  const sentence = text.charAt(0).toUpperCase() + text.slice(1)
  return speed.gpu ? `${sentence}; likely faster with the ${speed.gpu} GPU found here` : sentence
}
