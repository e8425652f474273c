// RHRDashboard: see DESIGN.md section 3.
