// The station page: wind, gust, true and apparent wind, water temperature, what to wear and
// the next 12 hours' outlook, from ENV.
import { $, setText } from "./dom.js";
import { compassPoint, fixed, speed } from "./format.js";
import { lookup, words } from "./lang.js";
import { subscribe } from "./store.js";

subscribe("ENV", (env) => {
  setText("wind", env.windSpeed3s !== undefined ? speed(env.windSpeed3s) : (env.windSpeed !== undefined ? speed(env.windSpeed) : "--"));
  setText("gust", env.windGust !== undefined ? speed(env.windGust) : "--");
  // Only a vane aboard a vessel gives an apparent wind (ENV carries none from a fixed mast):
  // then the vane's mean is an angle from the bow, and the direction shown is the true wind's.
  const aboard = env.windSpeedApparent !== undefined;
  const from = aboard ? env.windDirectionTrue : env.windDirection;
  setText("wind-dir", from !== undefined ? `${fixed(from, 0)}° ${compassPoint(from)}` : "--");
  setText("wind-true", env.windSpeedTrue !== undefined ? lookup("label.windFrom", speed(env.windSpeedTrue), `${fixed(env.windDirectionTrue, 0)}°`) : "--");
  setText("wind-apparent", aboard ? lookup("label.offTheBow", speed(env.windSpeedApparent), `${fixed(env.windAngleApparent, 0)}°`) : "--");
  const apparentRow = $("wind-apparent")?.parentElement;
  if (apparentRow) apparentRow.hidden = !aboard;
  setText("water", env.waterTemperature !== undefined ? `${fixed(env.waterTemperature, 1)} °C` : "--");
  // What to wear by its step, in the page's language (the device's text is English).
  setText("wetsuit", env.wetsuit ? (lookup(`wetsuit.${env.wetsuit.step}`) ?? env.wetsuit.text) : "--");
  // The forecast's sentence, never the card's letter.
  setText("outlook", env.forecast ? words("zambretti", env.forecast.letter) : words("trend", "waiting"));
});
