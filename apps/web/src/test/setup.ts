import { configure } from "@testing-library/dom";

// findBy… and waitFor give up after one second by default: a busy machine can take longer than that to
// render a screen in jsdom. A passing test returns as soon as its element is there.
configure({ asyncUtilTimeout: 10_000 });
