/** The page script's marker (filled in below). */
export const CLIENT_MARKER = String.raw`
`;
