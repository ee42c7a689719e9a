import { type Command, CommanderError, Option } from 'commander'
import type { SayCliOptions } from '../commandOptions'
import { dataDirOption, EXIT_USAGE } from '../program'

function parseRate(value: string): number {
  const rate = Number(value)
  if (!Number.isFinite(rate) || rate < 0.25 || rate > 4)
    throw new CommanderError(
      EXIT_USAGE,
      'bureau.badRate',
      `error: --rate must be a number from 0.25 to 4 (1 = normal), not "${value}"`,
    )
  return rate
}

export function registerSayCommand(program: Command): void {
  program
    .command('say')
    .description(
      'speak text (or write a WAV) with a TTS engine, sentence by sentence as the Voice panel does; "-" reads stdin',
    )
    .argument('[text]', 'what to say (Markdown is fine: syntax is not read, code and tables become a note)')
    .addOption(
      new Option('--engine <name>', 'TTS engine (default: the voice.tts.engine setting)').choices([
        'espeak-ng',
        'festival',
        'piper',
        'openai',
      ]),
    )
    .option(
      '--voice <voice>',
      'voice name, e.g. en-us for espeak-ng, cmu_us_slt_arctic_hts for Festival, piper-en_US-amy-medium for Piper, alloy for OpenAI',
    )
    .option('--rate <rate>', 'speaking rate, 1 = normal (0.25-4)', parseRate)
    .option('--out <file.wav>', 'write one WAV file instead of playing')
    .option('--list-voices', 'list the voices of the engine and exit')
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      '\nOffline engines: espeak-ng and Festival are system programs (sudo apt install espeak-ng festival festvox-us-slt-hts);\nPiper voices are downloaded with `bureau models pull piper-en_US-amy-medium`. Nothing leaves the computer with them.\nThe OpenAI-compatible engine uses the Voice settings (voice.tts.baseUrl, model, key) or the active\nOpenAI-compatible provider (BUREAU_BASE_URL/BUREAU_API_KEY work too).',
    )
    .action(async (text: string | undefined, options: SayCliOptions) => {
      const { runSay } = await import('../say/runSay')
      await runSay(text, options)
    })
}
