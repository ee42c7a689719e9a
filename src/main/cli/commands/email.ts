import { type Command, Option } from 'commander'
import type { EmailAccountAddOptions, EmailCliOptions } from '../commandOptions'
import { dataDirOption } from '../program'

const lazy = () => import('../email/runEmailAccounts')

export function registerEmailCommand(program: Command): void {
  const email = program.command('email').description('e-mail accounts for the email toolset')
  const accounts = email.command('accounts').description('add, list, test and remove e-mail accounts')

  accounts
    .command('add')
    .description(
      'add or replace an account; the password comes from --password-env or stdin, never an argument',
    )
    .argument('<name>', 'lower-case letters, digits, "-" or "_", e.g. work')
    .requiredOption('--imap-host <host>', 'IMAP server')
    .option('--imap-port <port>', 'IMAP port (default 993 with TLS, 143 without)')
    .option('--imap-tls', 'TLS from the first byte (default)', true)
    .option('--no-imap-tls', 'plain connection, upgraded with STARTTLS when offered')
    .requiredOption('--smtp-host <host>', 'SMTP server')
    .option('--smtp-port <port>', 'SMTP port (default 465 with TLS, 587 without)')
    .option('--smtp-tls', 'TLS from the first byte (port 465)')
    .option('--no-smtp-tls', 'STARTTLS when offered (default)')
    .requiredOption('--user <user>', 'login name for both servers')
    .requiredOption('--from <address>', 'sender address')
    .option('--display-name <name>', 'sender name shown to recipients')
    .option('--password-env <VAR>', 'read the password from this environment variable')
    .addOption(new Option('--default', 'make it the default account'))
    .addOption(dataDirOption())
    .addHelpText(
      'after',
      '\nExample:\n  printf %s "$MAIL_PASSWORD" | bureau email accounts add work --imap-host imap.example.com \\\n    --smtp-host smtp.example.com --user me@example.com --from me@example.com',
    )
    .action(async (name: string, options: EmailAccountAddOptions) => {
      await (await lazy()).runAccountsAdd(name, options)
    })

  accounts
    .command('list')
    .description('list the accounts (the password only as set or not)')
    .addOption(dataDirOption())
    .action(async (options: EmailCliOptions) => {
      await (await lazy()).runAccountsList(options)
    })

  accounts
    .command('test')
    .description('log in to the IMAP and SMTP servers of an account; exit 1 when either fails')
    .argument('<name>', 'the account')
    .addOption(dataDirOption())
    .action(async (name: string, options: EmailCliOptions) => {
      await (await lazy()).runAccountsTest(name, options)
    })

  accounts
    .command('rm')
    .description('remove an account and its stored password')
    .argument('<name>', 'the account')
    .addOption(dataDirOption())
    .action(async (name: string, options: EmailCliOptions) => {
      await (await lazy()).runAccountsRm(name, options)
    })
}
