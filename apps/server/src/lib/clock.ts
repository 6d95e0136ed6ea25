/** Time comes from here, so that tests move it instead of sleeping (token expiry, rate-limit windows, sessions). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
