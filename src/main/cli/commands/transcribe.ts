import { type Command, Option } from 'commander'
import type { TranscribeCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

export function registerTranscribeCommand(program: Command): void {
  program
    .command('transcribe')
    .description(
      'print the text spoken in a WAV file (any sample rate, resampled); "-" reads the WAV on stdin',
    )
    .argument('<file>', 'a WAV file, or - for stdin')
    .addOption(
      new Option(
        '--engine <name>',
        'speech recognizer (default: the voice.stt.engine setting, else whisper)',
      ).choices(['whisper', 'pocketsphinx', 'openai']),
    )
    .option('--model <id>', 'an installed whisper model, e.g. whisper-base.en (see `bureau models list`)')
    .option('--model-file <path>', 'a whisper.cpp model file (ggml-*.bin) to use as it is')
    .option(
      '--language <code>',
      'spoken language, e.g. en or de (default: detected by whisper; PocketSphinx is English)',
    )
    .option('--json', 'print {"text", "engine", "elapsedMs"}')
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      '\nwhisper.cpp and PocketSphinx run on this computer; openai sends the audio to the OpenAI-compatible\nservice of the Voice settings or the active provider. Models: `bureau models pull whisper-base.en`.',
    )
    .action(async (file: string, options: TranscribeCliOptions) => {
      const { runTranscribe } = await import('../transcribe/runTranscribe')
      await runTranscribe(file, options)
    })
}
