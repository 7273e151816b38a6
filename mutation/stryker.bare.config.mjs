// @ts-check
/**
 * `npm run mutation -- --bare --mutate FILE,...`: the score with nothing set
 * aside, every mutant Stryker makes of the files counted, with no ignorer and
 * no listed survivor (the figure the mutation issue asks of its two sampled
 * files). Its own report (reports/mutation/bare.json), not incremental: it
 * leaves the standing figure's results alone.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
import base from './stryker.config.mjs';

export default {
  ...base,
  ignorers: [],
  incremental: false,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/bare.json' },
};
