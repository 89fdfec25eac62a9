// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Whether text holds a control character (never meaningful in names, logins or keys). */
export const hasControlCharacters = (value: string): boolean => CONTROL_CHARS.test(value);

/** A UTF-16 surrogate without its partner: ill-formed Unicode (no UTF-8 form, `encodeURIComponent` throws). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether text is ill-formed Unicode (holds a lone surrogate); the API refuses such input. */
export const hasLoneSurrogates = (value: string): boolean => LONE_SURROGATE.test(value);
