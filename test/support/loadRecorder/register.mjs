// `node --import <this file>`: records the URL of every ES module (and CommonJS package entry imported
// from one) the process loads, one per line, into the file named by BUREAU_TEST_LOAD_LOG.
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url, { data: { log: process.env.BUREAU_TEST_LOAD_LOG } })
