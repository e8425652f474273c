// RHRDaemon: see DESIGN.md section 3.
