// The result's picture (templates/sheets/_share.html; sheet.html loads this file only where
// there is a picture): where the phone's share sheet takes files (navigator.canShare), "Share
// the picture" hands it the PNG with the result's text; elsewhere the plain "Save the picture"
// link (a download, without JavaScript too) stays. The picture is fetched as the finger lands
// on the button, so that the share sheet still opens within the tap.
(function () {
  "use strict";
  var button = document.getElementById("share-picture");
  var link = document.getElementById("download-picture");
  var result = document.getElementById("share-result");
  if (!button || !link || !result || !navigator.canShare || !window.File) { return; }
  function pictureFile(blob) { return new File([blob], button.dataset.file, { type: "image/png" }); }
  var takesFiles = false;
  try { takesFiles = navigator.canShare({ files: [pictureFile(new Blob([""], { type: "image/png" }))] }); } catch (e) { takesFiles = false; }
  if (!takesFiles) { return; }
  var picture = null;
  function fetchPicture() {
    if (!picture) {
      picture = fetch(button.dataset.picture).then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.blob();
      }).then(pictureFile);
      picture.catch(function () { picture = null; });
    }
    return picture;
  }
  button.hidden = false;
  link.hidden = true;
  button.addEventListener("pointerdown", fetchPicture);
  button.addEventListener("focus", fetchPicture);
  button.addEventListener("click", function () {
    fetchPicture().then(function (file) {
      var data = { files: [file], title: result.dataset.title, text: result.dataset.text + "\n" + result.dataset.url };
      return navigator.share(data).catch(function (error) {
        if (error && error.name !== "AbortError") { throw error; }  // closed by the user: nothing to say
      });
    }).catch(function () { link.hidden = false; });  // no picture, or the phone refused it: the link to save it
  });
})();
