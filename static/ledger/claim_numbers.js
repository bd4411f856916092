// The episode's claims inline: a claim added with "Add another Claim" is offered the
// number after the highest on the page, as the server offers the first blank claim,
// and takes the focus, so a keyboard goes on into the new claim rather than past it
// (the row is added above the button). Without JavaScript there is no such button.
"use strict";

document.addEventListener("formset:added", (event) => {
  if (event.detail.formsetName !== "claims") {
    return;
  }
  const number = event.target.querySelector("input[name$='-number']");
  if (!number) {
    return;
  }
  if (!number.value) {
    const taken = [...document.querySelectorAll("#claims-group input[name$='-number']")]
      .map((input) => Number.parseInt(input.value, 10))
      .filter(Number.isInteger);
    number.value = Math.max(0, ...taken) + 1;
  }
  number.focus();
});
