import { describe, expect, it } from 'vitest'
import { appendChromiumSwitches } from '../../../src/main/electron/chromiumSwitches'

function record(platform: NodeJS.Platform): string[] {
  const switches: string[] = []
  appendChromiumSwitches({ appendSwitch: (name) => switches.push(name) }, platform)
  return switches
}

describe('Chromium switches of the Electron shell', () => {
  it('turns on speech-dispatcher on Linux so speechSynthesis has system voices', () => {
    expect(record('linux')).toEqual(['enable-speech-dispatcher'])
  })

  it('adds nothing on Windows and macOS, whose voices need no switch', () => {
    expect(record('win32')).toEqual([])
    expect(record('darwin')).toEqual([])
  })
})
