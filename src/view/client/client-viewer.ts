/** The page script's viewer (filled in below). */
export const CLIENT_VIEWER = String.raw`
function startViewer(data) { document.body.setAttribute('data-ready', 'true'); }
`;
