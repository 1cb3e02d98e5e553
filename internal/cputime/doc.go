// Package cputime reads the CPU time of the process, every thread's, for the rates the
// commands print and measure costs by (the atlas's plan, the truth set's estimate).
package cputime
