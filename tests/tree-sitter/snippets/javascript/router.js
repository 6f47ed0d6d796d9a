// @ts-check
import express, { Router as makeRouter } from "express";
import * as path from "node:path";
import "./polyfills.js";
const { promisify } = require("node:util");
const fs = require("node:fs");

export const DEFAULT_PORT = 8080;

/**
 * Base class of HTTP handlers.
 */
class Handler {
  constructor(name) {
    this.name = name;
  }

  /** Sends a JSON body. */
  send(res, body) {
    res.status(200).json(body);
  }
}

// Serves files below one root folder.
export class StaticHandler extends Handler {
  constructor(root) {
    super("static");
    this.root = path.resolve(root);
  }

  async handle(req, res) {
    const readFile = promisify(fs.readFile);
    const data = await readFile(path.join(this.root, req.path));
    this.send(res, { size: data.length });
  }
}

/** Builds the application router. */
export function buildRouter(root) {
  const router = makeRouter();
  const handler = new StaticHandler(root);
  router.get("/files/*", (req, res) => handler.handle(req, res));
  return router;
}

const logRequest = (req) => {
  console.info(`${req.method} ${req.url}`);
};

export default function start(port = DEFAULT_PORT) {
  const app = express();
  app.use(logRequest);
  app.use(buildRouter(process.cwd()));
  return app.listen(port);
}
