//go:build linux

package outfile

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestFIFOIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "games.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan string, 1)
	go func() {
		r, err := os.Open(fifo) // waits for the writer
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	f := write(t, fifo, "through")
	if f.Atomic() {
		t.Error("a FIFO is written under a temporary name")
	}
	if s := <-got; s != "through" {
		t.Errorf("the reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is no longer a FIFO: %v %v", fi.Mode(), err)
	}
}

func TestFIFOWithoutReaderStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "nobody.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // nobody will ever open the FIFO: only the context ends the wait
	if _, err := Create(ctx, fifo); !errors.Is(err, context.Canceled) {
		t.Errorf("Create = %v, want context.Canceled", err)
	}
}

func TestDevicesAreWrittenThrough(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mknod needs root")
	}
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	full := filepath.Join(dir, "full")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skip("mknod:", err)
	}
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skip("mknod:", err)
	}
	if fd, err := syscall.Open(null, syscall.O_WRONLY, 0); err != nil {
		t.Skip("devices cannot be opened here (nodev):", err)
	} else {
		syscall.Close(fd)
	}
	write(t, null, "gone")
	f, err := Create(context.Background(), full)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, "x"); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("writing to a full device: %v, want ENOSPC", err)
	}
	f.Abort()
	for _, dev := range []string{null, full} {
		fi, err := os.Lstat(dev)
		if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("%s is no longer a device: %v %v", dev, fi.Mode(), err)
		}
	}
	if names := entries(t, dir); len(names) != 2 {
		t.Errorf("the folder holds %v", names)
	}
}
