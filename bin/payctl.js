#!/usr/bin/env node
// The whole CLI lives in the bundle; this file only hands over to it.
import '../dist/main.js';
