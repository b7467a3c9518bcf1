// The five lines a host page needs so that embed.html frames fit their content.
addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "subwordlab:height") return;
  for (const frame of document.querySelectorAll("iframe"))
    if (frame.contentWindow === event.source) frame.style.height = `${event.data.height}px`;
});
