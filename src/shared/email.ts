// What counts as an e-mail address here, for users and members alike: one @ with something either side, no spaces,
// at most 254 characters (RFC 5321's limit on a path). Whether it receives mail is for the mail to tell.
export const isEmailAddress = (text: string): boolean => text.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(text);
