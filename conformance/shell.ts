/** Words for the POSIX-shell commands the reports print (replays, reruns). */

/** `text` as one single-quoted word. */
export const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** `word` as it is when the shell leaves it so (a path, an option), else quoted. */
export const shellArgument = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : shellQuote(word));
